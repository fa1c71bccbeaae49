val_loader = build_detection_test_loader(cfg, "validation")
inference_on_dataset(DefaultPredictor(cfg).model,val_loader,Counter())

class Counter(DatasetEvaluator):
    def process(self, inputs, outputs):
    for input, output in zip(inputs, outputs):
        if(len(output["instances"])==0):  print(input["file_name"])

predictor = DefaultPredictor(cfg)
im = cv2.imread(PathToSameImage)
output = predictor(im)
