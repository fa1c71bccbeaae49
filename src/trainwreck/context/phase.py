"""The phase a run failed in: import, start-up, first step, training, evaluation, ...

The phase narrows the cause: an OOM while saving is a gather on save, not the
activations; a hang at start-up is the rendezvous, not a collective mismatch.
The innermost frames of the final traceback say it most directly (their
function names), then the user's words ("when saving", "at the first step").
"""

from __future__ import annotations

import re

from trainwreck.model import Evidence, ExceptionRecord, Phase, StatedClass

# Checked innermost frame first; the first phase whose words a frame names wins.
_FRAME_WORDS: tuple[tuple[Phase, re.Pattern[str]], ...] = (
    (
        "checkpoint save/load",
        re.compile(
            r"save_pretrained|save_checkpoint|_save\b|save_model|"
            r"torch\.save|load_state_dict|load_checkpoint|"
            r"_load_from_checkpoint|safe_open|torch\.load"
        ),
    ),
    (
        "generation/serving",
        re.compile(
            r"\bgenerate\b|_sample\b|beam_search|\bsample\b|"
            # TGI's server answers the router's Prefill and Decode calls
            r"execute_model|LLMEngine|serve|\bPrefill\b|\bDecode\b"
        ),
    ),
    (
        "evaluation",
        re.compile(
            r"evaluat\w*|eval_loop|prediction_loop|validation_step|"
            r"_run_evaluation|\bpredict\b"
        ),
    ),
    (
        "start-up",
        re.compile(
            r"init_process_group|rendezvous|_init_\w*distributed|"
            r"from_pretrained|prepare_model|deepspeed\.initialize|\bbarrier\b"
        ),
    ),
    (
        "training",
        re.compile(
            r"\bbackward\b|training_step|_inner_training_loop|\bstep\b|"
            r"train_batch|optimizer"
        ),
    ),
)
_SYMPTOM_WORDS: tuple[tuple[Phase, re.Pattern[str]], ...] = (
    # "tried a newer sha build" names a release of the image, not a build that failed; building
    # a dataset or a model is no package build (batch-26's "dataset-building map step"), and
    # a dated build names a release (batch-26's llama.cpp "build from early June 2023")
    (
        "install/import",
        re.compile(
            # "installed with Pipenv", "the installed version": how the setup was made, not
            # a failed install (batch-29's Keras and litgpt threads)
            r"\bimport\w*\b|"
            r"\binstall\w*+(?! (?:with|via|through|using|by|from|versions?|packages?)\b)|"
            # a package or extension being compiled, not torch.compile or jax.jit compiling a
            # model ("the compiled model fails", "compiling the graph", batch-36's Triton thread)
            r"(?<![.\w])compil\w*+(?! (?:the |a |my |our )?(?:model|graph|step|time|function)s?\b)|"
            # a build that is made or fails, not a release ("a mid-2023 PyTorch 2.x build",
            # "a newer sha build", "build 3216", batch-29's MultiheadAttention threads)
            r"\b(?:build(?:ing)? (?:from source|the (?:wheel|extension|package)|wheels?)|"
            r"fail(?:s|ed)? to build|build(?:ing)? (?:fails?|failed|errors?))\b"
        ),
    ),
    # not bitsandbytes' load_in_8bit setting, a way of loading rather than a failure at it
    # nor loading data ("hangs during data loading", "loading the dataset"), which is the
    # input pipeline's (batch-35's OTX DataLoader hang read as a checkpoint load)
    (
        "checkpoint save/load",
        re.compile(
            r"\bsav(?:e|ing)\b|checkpoint|resum\w*|(?<!data )\bload(?!_in_)\w*+"
            r"(?! (?:the |of the |our |my )?(?:data|dataset|batch|images?|samples?)\w*)"
        ),
    ),
    ("evaluation", re.compile(r"\beval\w*|validat\w*|\btest(?:ing)?\b")),
    ("generation/serving", re.compile(r"generat\w*|inference|\bserv\w*|vllm|sampling")),
    ("first step", re.compile(r"first (?:step|batch|iteration|epoch)|step 0\b|start of training")),
    # "training stops immediately with an AssertionError" (batch-35's mmdetection thread):
    # a failure at once is the start-up's, whatever the sentence calls the run
    (
        "start-up",
        re.compile(
            r"start-?up|\binit\w*|launch\w*|at the start|before training|"
            r"\b(?:stops?|stopped|fails?|failed|crash\w*|dies|died|exits?|exited) (?:\w+ )?"
            r"(?:immediately|right away|at once)\b|\bimmediately (?:fails?|crash\w*|stops?|exits?)"
        ),
    ),
    (
        "training",
        re.compile(
            r"after (?:\d+|a few|some|several) (?:steps?|hours?|epochs?)|"
            r"mid-?training|during training|\btrain\w*"
        ),
    ),
)


def _from_exception(exc: ExceptionRecord) -> Phase | None:
    if exc.type in ("ImportError", "ModuleNotFoundError") or "undefined symbol" in exc.message:
        return "install/import"
    for frame in reversed(exc.frames):
        text = f"{frame.function or ''} {frame.code or ''}"
        for phase, words in _FRAME_WORDS:
            if words.search(text):
                return phase
    return None


_SENTENCE_END = re.compile(r"(?<=[.;!?])\s+")


def _named_in(text: str) -> Phase | None:
    return next((phase for phase, words in _SYMPTOM_WORDS if words.search(text)), None)


def phase_of(evidence: Evidence, stated: StatedClass | None = None) -> Phase | None:
    """The phase the final traceback or, failing that, the user's words place the failure in:
    first the sentences that state the failure (a description opens with its setup, "installed
    with Pipenv", "loaded in 8-bit", before it says what failed), then the whole text."""
    final = evidence.final_exception
    if final is not None and (phase := _from_exception(final)) is not None:
        return phase
    text = (evidence.symptoms or "").lower()
    if stated is not None and stated.source == "symptoms":
        stating = [
            sentence
            for sentence in _SENTENCE_END.split(text)
            if any(word.lower() in sentence for word in stated.words)
        ]
        if (phase := _named_in(" ".join(stating))) is not None:
            return phase
    return _named_in(text)
