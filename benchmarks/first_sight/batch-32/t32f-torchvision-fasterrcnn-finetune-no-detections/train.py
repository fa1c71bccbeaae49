    model = torchvision.models.detection.fasterrcnn_resnet50_fpn(pretrained=True)
    in_features = model.roi_heads.box_predictor.cls_score.in_features
    num_classes = 1
    model.roi_heads.box_predictor = FastRCNNPredictor(in_features, num_classes)

model.eval()
with torch.no_grad():
    img = cv2.imread("asd.jpg")
    img_pil = Image.open("asd.jpg").convert("RGB")
    out = model([F.to_tensor(img_pil).to(device)])[0]
    boxes, scores = out["boxes"], out["scores"]
    print(boxes)
    print(scores)
