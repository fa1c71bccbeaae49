"""What a description says that states no failure, masked before its class is read.

The class rules (class_phrases.py, read by stated.py) count phrases; a phrase inside
a denial ("no crash or NaN"), a setting the user describes ("the backbone is
frozen"), a failure already worked around, a cause the user only asks about ("is
Qwen incompatible with vLLM?"), or a "never starts" beside the error it follows
would each count for a class the user does not report.
"""

from __future__ import annotations

import re

# What the user says is NOT the problem states no class: "no crash or NaN", "train loss and
# throughput look normal". Masked before the rules are read.
_DENIED = re.compile(
    # "nothing crashes" (batch-30's CartPole reproduction), "never crashing"
    r"\b(?:no|without|does ?n[o']t|did ?n[o']t|nothing|never) "
    r"(?:crash|error|nan|inf|oom|exception|traceback)(?:e?s|ing|ed)?"
    r"(?:(?:,? (?:or|and|nor) |/)(?:crash|error|nan|inf|oom|exception|traceback)(?:e?s)?)*\b"
    # "the output contains no NaNs, but the gradient does" (batch-32's kornia thread) denies
    # the forward only: the gradient is the failure
    r"(?![^.;]{0,40}\bbut (?:the |its )?(?:grad\w*|backward\w*) (?:does|do|has|have|is|are)\b)|"
    r"\b\w+(?: and \w+)? (?:looks?|is|are|seems?|stays?) (?:normal|fine|ok(?:ay)?|as expected)\b|"
    # "train and eval loss go down nicely and plateau": training went as it should
    r"\bloss(?:es)? (?:go(?:es)?|went|goes) down (?:nicely|fine|well|normally|as expected)"
    r"(?: and (?:then )?plateau\w*)?|"
    # "the checkpoint file isn't truncated", "so it isn't slow compute": a state ruled out
    r"\b(?:is|are|was|were)(?:n'?t| not) (?:\w+ )?"
    r"(?:truncated|slow\w*|stuck|hang\w*|froz\w*|freez\w*|corrupt\w*)\b"
)

# A setting described, not a symptom: "the rest of the model is frozen", "halve the learning
# rate when training stalls" (a plateau scheduler the user chose). Masked with the denials.
_DESCRIBED_SETTING = re.compile(
    r"\b(?:backbone|layers?|weights?|encoder|parameters?|params|base|model|embeddings?|"
    r"modules?|blocks?)(?: (?:is|are|was|were|kept|stays?|left))? frozen\b|"
    # a parameter count ("657,664 frozen, 34,052 trainable", batch-28) is a setting too
    r"\b\d[\d,.]*[kmb]? frozen\b|"
    # "the frozen-backbone epochs": the setting as an adjective
    r"\bfrozen[- ](?:backbone|layers?|weights?|encoder|base|embeddings?)\b|"
    r"\bfreez(?:e|es|ing) (?:the |all |its |our |my |every )?(?:\w+ )?(?:backbone|layers?|"
    r"weights?|encoder|parameters?|params|base|embeddings?|modules?|blocks?)\b|"
    # LLaMA-Factory's finetuning_type: "fine-tuned with the freeze method"
    r"\bfreeze (?:method|fine-?tuning|tuning|training|mode|strategy)\b|"
    r"\b(?:when|if|once|whenever) (?:the )?(?:\w+ )?(?:training|loss|metric) "
    r"(?:stalls|plateaus|stops improving)\b|"
    # "sequences are truncated to 64 tokens": the tokenizer setting, not a cut-off output
    r"\btruncat(?:ed|es|ing) (?:to|at) (?:\d+|max_length|the max\w*)\b|"
    # "which is slow (large download)": an install that takes long, not a slow run
    r"\bslow\w*[^.;]{0,20}\bdownload\w*|"
    # an OOM the user avoided ("lowered the batch size to avoid OOM") or only came close to
    r"\b(?:to avoid|avoiding|prevent|to prevent) (?:an? |the )?(?:cuda )?"
    r"(?:oom|out[- ]of[- ]memory)\b|"
    r"\b(?:close to|nearly|almost)\b[^.;]{0,20}(?:oom|out[- ]of[- ]memory)\b|"
    # or one that a setup the run now uses avoids ("without DeepSpeed it runs out of memory")
    r"\bwithout [\w-]+(?: [\w-]+)?,? (?:it |the run |training |the job )?"
    r"(?:runs? out of memory|ooms?|goes oom)\b|"
    # a crash the run was restarted after ("a run restarted from a checkpoint after a crash"):
    # the history of the run, not what the user asks about
    r"\b(?:restart\w*|resum\w*|relaunch\w*|recover\w*)\b[^.;]{0,60}?\bafter an? "
    r"(?:crash|failure|preemption)\b|"
    # batches the code skips when their loss is NaN: a guard the user wrote, not the symptom
    r"\b(?:skip\w*|returns? none)\b[^.;]{0,60}?\b(?:when|if|whenever) (?:the )?loss "
    r"(?:is|becomes|goes) (?:nan|inf)\b"
)


# A failure the user already got past is not the one they ask about: "I got CUDA out of memory,
# so I added model.half(). Now it fits, but the loss becomes NaN" states a NaN, not an OOM.
_WORKED_AROUND = re.compile(
    r"(?:[^.;]|\.(?=\w))*\bso i (?:added|used|switched|set|enabled|reduced|lowered|turned|"
    r"moved|called|changed|tried)\b(?:[^.;]|\.(?=\w))*[.;]\s*now (?:it|the model|training|"
    r"the job) "
    r"(?:fits|runs|works|trains|starts|loads)\b"
)

# A cause the user asks about is no failure they saw: "asks whether Qwen is incompatible with
# vLLM" beside outputs of only "!!!!" (batch-29) states a wrong output, not a version conflict.
_ASKED_CAUSE = re.compile(
    r"\b(?:asks?|asking|asked|wonders?|wondering|wondered|not sure)\b (?:\w+ ){0,2}"
    r"(?:whether|if) [^.;?]{0,80}?\b(?:incompatib\w*|not (?:supported|compatible)|unsupported|"
    # a card the user asks about running out of memory (batch-33's LMFlow thread) is no OOM seen
    r"run out of memory)\b"
)

# "Training never starts" beside a reported error is that error's consequence, not a hang.
_ERROR_REPORTED = re.compile(
    # argparse's "train.py: error: unrecognized arguments" (batch-33's XMem thread)
    r"\b(?:exits?|exited|crash\w*|raises?|raised|\w+error\b|fail(?:s|ed)?\b|traceback|error:)"
)
_NEVER_STARTS = re.compile(r"(?:never|does ?n[o']t|did ?n[o']t) (?:\w+ )?start\w*(?: training)?")


def stating_words(lowered: str) -> str:
    """The lowercased description with every phrase that states no failure blanked."""
    text = _DENIED.sub(" ", lowered)
    text = _DESCRIBED_SETTING.sub(" ", text)
    text = _WORKED_AROUND.sub(" ", text)
    text = _ASKED_CAUSE.sub(" ", text)
    if _ERROR_REPORTED.search(text):
        text = _NEVER_STARTS.sub(" ", text)
    return text
