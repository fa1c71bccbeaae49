python tools/demo.py image -n yolox-m -c models/yolox_m.pth --path assets/dog.jpg --conf 0.25 --nms 0.45 --tsize 640
