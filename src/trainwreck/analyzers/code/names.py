"""What a name in user code probably holds: a model, an optimizer, a detached number
(what is named like a loss: losses.py).

Without running the code, the detectors go by what a reader goes by: the
constructor a name was bound to (`AutoencoderKL.from_pretrained(...)`,
`nn.Sequential(...)`), the methods called on it (`.eval()`, `.parameters()`),
and the names the PyTorch tutorials and docs use (`model`, `criterion`,
`optimizer`). Each guess errs towards staying quiet.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from trainwreck.analyzers.code.losses import names_loss_call
from trainwreck.analyzers.code.tree import (
    Function,
    Loop,
    Tree,
    calls,
    dotted,
    is_method,
    last,
    receiver,
)

# Names PyTorch and diffusers examples give modules, with or without `self.`.
MODEL_WORDS = frozenset(
    {
        "model",
        "net",
        "network",
        "vae",
        "unet",
        "encoder",
        "decoder",
        "generator",
        "discriminator",
        "classifier",
        "backbone",
        "text_encoder",
    }
)
# Calls that load a trained module, and calls that build or wrap one.
_LOADERS = re.compile(r"(?:^|\.)(?:from_pretrained|from_single_file|load_from_checkpoint)$")
_WRAPPERS = re.compile(
    r"(?:^|\.)(?:Sequential|DistributedDataParallel|DDP|DataParallel|FullyShardedDataParallel)$"
)
# Calls on a module that return the same module (`Net().to(device)`).
SAME_MODULE_CALLS = frozenset({"to", "cuda", "cpu", "float", "double", "half", "bfloat16"})
# Methods only a module has: calling one on a name says the name is a module.
_MODULE_METHODS = frozenset({"eval", "train", "parameters", "named_parameters"})
# Loaded with from_pretrained but not modules whose call is a forward pass: pipelines run
# theirs under no_grad, and tokenizers, processors, configs and schedulers have none.
_NOT_A_MODULE = re.compile(
    r"Pipeline|pipeline|Tokenizer|Processor|FeatureExtractor|Config|Scheduler"
)
# torch.optim's optimizers and the common third-party ones, by the name they are called with.
OPTIMIZER_CLASSES = frozenset(
    {
        "SGD",
        "Adam",
        "AdamW",
        "Adagrad",
        "Adadelta",
        "Adamax",
        "NAdam",
        "RAdam",
        "RMSprop",
        "Rprop",
        "LBFGS",
        "SparseAdam",
        "Adafactor",
        "Lion",
        "AdamW8bit",
        "PagedAdamW",
    }
)
# torch.nn layers that hold no parameters: leaving one unregistered loses nothing.
PARAMETER_FREE_LAYERS = frozenset(
    {
        "ReLU",
        "ReLU6",
        "LeakyReLU",
        "GELU",
        "SiLU",
        "ELU",
        "Tanh",
        "Sigmoid",
        "Softmax",
        "LogSoftmax",
        "Dropout",
        "Dropout2d",
        "Identity",
        "Flatten",
        "Unflatten",
        "MaxPool1d",
        "MaxPool2d",
        "MaxPool3d",
        "AvgPool1d",
        "AvgPool2d",
        "AvgPool3d",
        "AdaptiveAvgPool1d",
        "AdaptiveAvgPool2d",
        "AdaptiveMaxPool2d",
        "Upsample",
    }
)
_FORWARD_METHODS = frozenset({"forward", "encode", "decode"})
_OPTIMIZER = re.compile(r"(?i)optim|(?:^|_)opt(?:_|\d|$)|scaler")
# Calls that turn a tensor into a number or a graph-free tensor.
_DETACHING_METHODS = frozenset({"item", "detach", "tolist", "numpy", "detach_"})
_DETACHING_FUNCTIONS = frozenset({"float", "int", "round"})
# Code that puts a tensor or a module on an accelerator says so in one of these words.
# "device" as a name in code, not the prose of "an on-device model" in a docstring (batch-32's
# tiny-BERT reproduction trains on the CPU for an on-device router)
_ON_GPU = re.compile(r"\bcuda\b|(?<!-)\bdevice\b")
# Calls that draw random numbers: what makes a sample path an augmentation (or a sampler).
RANDOM_CALL = re.compile(
    r"(?:^|\.)(?:random|randint|randn|rand|randperm|choice|sample|shuffle|normal|uniform)"
    r"(?:_like)?\b"
)
# Tensor methods that change their receiver's values in place (the trailing-underscore spelling).
IN_PLACE_METHODS = frozenset(
    {
        "add_",
        "sub_",
        "mul_",
        "div_",
        "copy_",
        "fill_",
        "zero_",
        "normal_",
        "uniform_",
        "clamp_",
        "addcdiv_",
        "addcmul_",
        "masked_fill_",
    }
)
# `__getitem__(self, index)`: the arguments before the index.
_SELF_AND_INDEX = 2
# Lightning runs these hooks with autograd off already.
NO_GRAD_HOOKS = frozenset({"validation_step", "test_step", "predict_step"})


def module_classes(tree: Tree) -> set[str]:
    """Classes the code defines on top of nn.Module (or any *Module base)."""
    return {
        node.name
        for node in tree.nodes
        if isinstance(node, ast.ClassDef)
        and any(last(base).endswith("Module") for base in node.bases)
    }


def _builds_module(value: ast.expr, classes: set[str]) -> bool:
    if not isinstance(value, ast.Call):
        return False
    name = dotted(value)
    if _NOT_A_MODULE.search(name):
        return False
    if names_loss_call(last(value)):
        return False  # nn.CrossEntropyLoss() is a module, but calling it is not a forward pass
    factory = _LOADERS.search(name) or _WRAPPERS.search(name)
    return bool(factory) or last(value) in classes or name.startswith("nn.")


def model_names(tree: Tree) -> set[str]:
    """Dotted names that hold a module in this code."""
    classes = module_classes(tree)
    found = set(MODEL_WORDS) | {f"self.{word}" for word in MODEL_WORDS}
    for node in tree.nodes:
        if isinstance(node, ast.Assign) and _builds_module(node.value, classes):
            found.update(dotted(target) for target in node.targets)
        elif isinstance(node, ast.Call) and last(node) in _MODULE_METHODS and receiver(node):
            found.add(receiver(node))
    return found - bound_to(tree, _NOT_A_MODULE) - {""}


def bound_to(tree: Tree, pattern: re.Pattern[str]) -> set[str]:
    """Names assigned a value whose dotted name matches `pattern` (`x = Net.from_pretrained()`)."""
    return {
        dotted(target)
        for node in tree.nodes
        if isinstance(node, ast.Assign) and pattern.search(dotted(node.value))
        for target in node.targets
    }


# torch.distributed collectives, Accelerate's and Lightning's synchronising calls, and
# checkpoint saves that end in a barrier; unambiguous by name alone.
COLLECTIVES = frozenset(
    {
        "all_reduce",
        "all_gather",
        "all_gather_object",
        "all_gather_into_tensor",
        "reduce_scatter",
        "reduce_scatter_tensor",
        "all_to_all",
        "broadcast_object_list",
        "barrier",
        "monitored_barrier",
        "wait_for_everyone",
        "save_checkpoint",
        "gather_for_metrics",
    }
)
# Names that are collectives only on a distributed module or an Accelerator
# (`torch.gather` and `tensor.scatter` are ordinary tensor ops).
AMBIGUOUS_COLLECTIVES = frozenset({"broadcast", "reduce", "gather", "gather_object", "scatter"})
# What makes code distributed: DDP or FSDP, a process group or device mesh, or an Accelerate
# launch.
_DISTRIBUTED = re.compile(
    r"(?:^|\.)(?:DistributedDataParallel|DDP|FullyShardedDataParallel|fully_shard|"
    r"init_process_group|init_device_mesh|Accelerator)$"
)


def distributed(tree: Tree) -> bool:
    """Whether the code runs as several ranks (it builds DDP or FSDP, a process group or device
    mesh, or an Accelerator)."""
    return any(_DISTRIBUTED.search(dotted(call.func)) for call in tree.calls)


def bound_calls(tree: Tree, keep: Callable[[ast.Call], bool]) -> dict[str, ast.Call]:
    """Names assigned a call that `keep` accepts, with that call (`sched = StepLR(...)`)."""
    return {
        dotted(target): node.value
        for node in tree.nodes
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and keep(node.value)
        for target in node.targets
        if dotted(target)
    }


def loaded_models(tree: Tree) -> set[str]:
    """Names bound to a loaded pretrained or saved module (`X.from_pretrained(...)`)."""
    return bound_to(tree, _LOADERS) - bound_to(tree, _NOT_A_MODULE)


def forward_target(call: ast.Call) -> str:
    """The module a call would run: `vae` for `vae(x)` and for `vae.encode(x)`."""
    if isinstance(call.func, ast.Attribute) and call.func.attr in _FORWARD_METHODS:
        return receiver(call)
    return dotted(call.func)


def is_module(value: ast.expr, models: set[str]) -> bool:
    """A name that holds a module, or a module built or loaded right there (`Net().half()`)."""
    if not isinstance(value, ast.Call):
        return dotted(value) in models
    constructed = last(value)[:1].isupper() and not _NOT_A_MODULE.search(last(value))
    return _builds_module(value, set()) or (constructed and not names_loss_call(last(value)))


def is_forward(call: ast.Call, models: set[str]) -> bool:
    """`model(x)`, `self.vae(x)`, `model.forward(x)`, `vae.encode(x)`."""
    return forward_target(call) in models


def is_optimizer(name: str) -> bool:
    return bool(_OPTIMIZER.search(name.rsplit(".", 1)[-1]))


def frozen_modules(tree: Tree) -> set[str]:
    """Modules the code freezes with `.requires_grad_(False)`: their forward builds no graph."""
    return {
        receiver(call)
        for call in tree.methods("requires_grad_")
        if call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value is False
    }


def method_calls(node: ast.AST, method: str) -> list[ast.Call]:
    """Calls of `.method(...)` under a node, e.g. every `.backward()` in a loop."""
    return [call for call in calls(node) if is_method(call, method)]


def optimizer_steps(node: ast.AST) -> list[ast.Call]:
    """`optimizer.step()` or `scaler.step(optimizer)`, not a scheduler's or a profiler's step."""
    return [call for call in method_calls(node, "step") if is_optimizer(receiver(call))]


def detached(value: ast.expr) -> bool:
    """Whether the expression is reduced to a number or cut from the graph."""
    if isinstance(value, ast.Call):
        if isinstance(value.func, ast.Attribute) and value.func.attr in _DETACHING_METHODS:
            return True
        if isinstance(value.func, ast.Name) and value.func.id in _DETACHING_FUNCTIONS:
            return True
    return isinstance(value, ast.Attribute) and value.attr == "data"


def runs_on_gpu(tree: Tree) -> bool:
    """Whether the code moves anything to a GPU: host-side costs matter only then."""
    return bool(_ON_GPU.search(tree.source))


def builds_layer(value: ast.expr, classes: set[str]) -> bool:
    """A call that constructs a module holding parameters: `nn.Linear(...)`, `Block(...)`."""
    if not isinstance(value, ast.Call):
        return False
    name = last(value)
    if not name[:1].isupper() or name in PARAMETER_FREE_LAYERS or names_loss_call(name):
        return False
    return name in classes or dotted(value).startswith(("nn.", "torch.nn."))


def dataset_classes(tree: Tree) -> list[ast.ClassDef]:
    """Classes that define `__getitem__`: map-style datasets."""
    return [
        node
        for node in tree.nodes
        if isinstance(node, ast.ClassDef)
        and any(isinstance(f, Function) and f.name == "__getitem__" for f in node.body)
    ]


def item_methods(tree: Tree) -> list[Function]:
    """Every `__getitem__` the code defines: the path each sample takes."""
    return [
        node for node in tree.nodes if isinstance(node, Function) and node.name == "__getitem__"
    ]


def item_subscripts(function: Function) -> list[ast.Subscript]:
    """`v[idx]` inside a `__getitem__`, indexed by the method's own index argument."""
    arguments = function.args.args
    if len(arguments) < _SELF_AND_INDEX:
        return []
    index = arguments[1].arg
    return [
        node
        for node in ast.walk(function)
        if isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Name)
        and node.slice.id == index
    ]


def indexes_a_result(function: Function) -> bool:
    """A `__getitem__` picks its item out of something it computed: `v[idx]` on a name that
    is not the dataset's own storage (`self.texts[idx]` reads storage)."""
    return any(not dotted(node.value).startswith("self.") for node in item_subscripts(function))


def constructor(value: ast.expr) -> str:
    """The call a module expression was built by: `Net` for `Net().to(device).half()`."""
    while (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in SAME_MODULE_CALLS
    ):
        value = value.func.value
    return last(value) if isinstance(value, ast.Call) else ""


EPOCHS = re.compile(r"(?i)epoch")
# A process's rank as code names it: `rank`, `args.local_rank`, `dist.get_rank()`.
RANK = re.compile(r"(?i)\b(?:local_|global_|world_|node_)?rank\b|get_rank|process_index")


def epoch_loop(loop: Loop) -> bool:
    """`for epoch in range(EPOCHS)`: a loop named for epochs (its target or its bound)."""
    if not isinstance(loop, ast.For | ast.AsyncFor):
        return False
    return bool(EPOCHS.search(ast.unparse(loop.target) + " " + ast.unparse(loop.iter)))
