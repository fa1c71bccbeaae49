# Code as pasted in the original post (excerpt)
import json
import os
from detectron2.structures import BoxMode

def get_dataset(imgdir):
  json_file = os.path.join(imgdir, 'dataset.json')

  with open(json_file) as f:
    dataset_dicts = json.load(f)

  for i in dataset_dicts:
    filename = i["file_name"]
    i["file_name"] = os.path.join(imgdir, 'Images', filename)

    for j in i["annotations"]:
      j["bbox_mode"] = BoxMode.XYWH_ABS 
      j["category_id"] = int(j["category_id"])
    
  return dataset_dicts

#Register the dataset 
dataset_path = '/content/mydrive/MyDrive/Projects/dataset/Text_Detection_Dataset'
for d in ["train", "val"]:
  DatasetCatalog.register("text_" + d, lambda d=d: get_dataset(dataset_path + "/" + d))
  MetadataCatalog.get("text_" + d).set(thing_classes=["hindi", "english", "others"])

from detectron2.engine import DefaultTrainer

cfg = get_cfg()
cfg.merge_from_file(model_zoo.get_config_file("COCO-Detection/faster_rcnn_R_50_FPN_3x.yaml"))

cfg.DATASETS.TRAIN = ("text_train",)
cfg.DATASETS.TEST = ("text_val",)

# ... (rest of config as in the post: model zoo weights, solver settings)
trainer = DefaultTrainer(cfg)
trainer.resume_or_load(resume=False)
trainer.train()
