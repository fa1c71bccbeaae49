import torch
from torchvision.models import resnet50, ResNet50_Weights


model = resnet50(weights=ResNet50_Weights.DEFAULT)
for param in model.parameters():
    param.requires_grad = False

# input_dim = model.fc.in_features
# model.fc = torch.nn.Linear(input_dim, 20)

model.eval()


example_inputs = (torch.randn(1, 3, 224, 224),)
onnx_program = torch.onnx.export(
    model,
    example_inputs,
    input_names=["input"],
    output_names=["output"],
    keep_initializers_as_inputs=False,
    dynamo=True,
    dynamic_shapes={"x": {0: torch.export.Dim("batch", min=1, max=10)}},
    verify=True,
)
if onnx_program:
    onnx_program.optimize()
    onnx_program.save("test.onnx")
else:
    raise RuntimeError("No onnx program.")
