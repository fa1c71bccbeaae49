"""Guards on generation and loading: padding, settings, output checks, missing keys."""

from __future__ import annotations

from trainwreck.fixes.guards.base import GuardTemplate

TOKENIZER_BASE = "https://github.com/huggingface/transformers/blob/v4.44.0/src/transformers/tokenization_utils_base.py"
GENERATE = (
    "https://github.com/huggingface/transformers/blob/v4.44.0/src/transformers/generation/utils.py"
)
GENERATION_CONFIG = (
    "https://github.com/huggingface/transformers/blob/"
    "6120704a01bde3d1234bb9311bcc2fdd9c0007bf/src/transformers/generation/configuration_utils.py"
)
LOAD_STATE_DICT = "https://github.com/pytorch/pytorch/blob/d4cc86dc3cf9b2b5f59d1b24af4c5e430f96ab7b/torch/nn/modules/module.py"

_GENERATION_INPUTS = '''def check_generation_inputs(tokenizer, inputs,
                            max_right_padded_batch=$max_right_padded_batch):
    """Before batched generate() on a decoder-only model: left padding and a mask."""
    batch = inputs["input_ids"].shape[0]
    if batch > max_right_padded_batch and tokenizer.padding_side != "left":
        raise ValueError(
            f"batch of {batch} with padding_side={tokenizer.padding_side!r}; "
            "set tokenizer.padding_side = 'left' for generation"
        )
    if tokenizer.pad_token_id is None:
        raise ValueError("tokenizer has no pad token; set one before padding a batch")
    if "attention_mask" not in inputs:
        raise ValueError("pass the tokenizer's attention_mask to generate()")

# enc = tokenizer(prompts, return_tensors="pt", padding=True)
# check_generation_inputs(tokenizer, enc); model.generate(**enc, max_new_tokens=256)
'''

_GENERATION_SETTINGS = '''def check_generation_settings(settings, min_new_tokens=$min_new_tokens):
    """Explicit max_new_tokens, and sampling knobs only when do_sample is on."""
    get = settings.get if isinstance(settings, dict) else lambda k: getattr(settings, k, None)
    if get("max_new_tokens") is None or get("max_new_tokens") < min_new_tokens:
        raise ValueError(f"set max_new_tokens >= {min_new_tokens} explicitly")
    neutral = {"temperature": 1.0, "top_p": 1.0, "top_k": 0}
    set_knobs = [k for k, v in neutral.items() if get(k) not in (None, v)]
    if set_knobs and not get("do_sample"):
        raise ValueError(f"{set_knobs} have no effect while do_sample is False")

# check_generation_settings(model.generation_config)  # or the request dict
'''

_AGREEMENT = '''def check_agreement(outputs_a, outputs_b,
                    min_identical_fraction=$min_identical_fraction):
    """Two ways of generating (batched vs single, merged vs adapter) must mostly agree."""
    pairs = list(zip(outputs_a, outputs_b, strict=True))
    same = sum(1 for a, b in pairs if a == b) / max(len(pairs), 1)
    if same < min_identical_fraction:
        raise AssertionError(
            f"only {same:.0%} of {len(pairs)} outputs agree (need {min_identical_fraction:.0%})"
        )
    return same

# check_agreement([gen([p])[0] for p in prompts], gen(prompts))  # greedy, same prompts
'''

_COMPLETIONS = '''def check_completions(sequences, prompt_lengths, eos_token_id, max_new_tokens,
                      min_eos_fraction=$min_eos_fraction, min_new_tokens=$min_new_tokens,
                      max_short_fraction=$max_short_fraction):
    """Generated sequences must mostly stop on EOS and rarely be (nearly) empty."""
    stopped = short = 0
    for seq, start in zip(sequences, prompt_lengths, strict=True):
        new = [int(t) for t in seq[start:]]
        if eos_token_id in new and new.index(eos_token_id) < max_new_tokens:
            stopped += 1
            new = new[: new.index(eos_token_id)]
        if len(new) < min_new_tokens:
            short += 1
    total = max(len(sequences), 1)
    if stopped / total < min_eos_fraction:
        raise AssertionError(f"only {stopped}/{total} completions stopped with EOS")
    if short / total > max_short_fraction:
        raise AssertionError(f"{short}/{total} completions have under {min_new_tokens} tokens")

# out = model.generate(**enc, max_new_tokens=512)
# check_completions(out, [enc["input_ids"].shape[1]] * len(out), tokenizer.eos_token_id, 512)
'''

_LOADING = '''def check_loading(info, max_missing=$max_missing, max_unexpected=$max_unexpected):
    """Fail on missing/unexpected keys from load_state_dict(strict=False) or from_pretrained."""
    get = info.get if isinstance(info, dict) else lambda k: getattr(info, k, [])
    missing = list(get("missing_keys") or [])
    unexpected = list(get("unexpected_keys") or [])
    mismatched = list(get("mismatched_keys") or [])
    if len(missing) + len(mismatched) > max_missing or len(unexpected) > max_unexpected:
        raise RuntimeError(
            f"missing {missing[:5]}, mismatched {mismatched[:5]}, unexpected {unexpected[:5]}"
        )

# model, info = AutoModel.from_pretrained(path, output_loading_info=True); check_loading(info)
# check_loading(model.load_state_dict(state, strict=False))
'''

_TOKENIZER = '''def check_tokenizer(tokenizer, require_chat_template=$require_chat_template,
                    require_distinct_pad=$require_distinct_pad, max_violations=$max_violations):
    """A pad token that is set (and not EOS when pads are masked); a chat template if needed."""
    problems = []
    if tokenizer.pad_token_id is None:
        problems.append("pad_token_id is None")
    elif require_distinct_pad and tokenizer.pad_token_id == tokenizer.eos_token_id:
        problems.append("pad_token_id == eos_token_id: masking pads also masks EOS")
    if require_chat_template and not getattr(tokenizer, "chat_template", None):
        problems.append("tokenizer has no chat_template")
    if len(problems) > max_violations:
        raise ValueError("; ".join(problems))

# check_tokenizer(tokenizer)  # right after loading it, before building the collator
'''

TEMPLATES = (
    GuardTemplate(
        "generation-inputs",
        "assert left padding, a pad token and an attention mask before batched generation",
        {"max_right_padded_batch": 1},
        TOKENIZER_BASE,
        _GENERATION_INPUTS,
    ),
    GuardTemplate(
        "generation-settings",
        "explicit max_new_tokens; sampling flags only with do_sample",
        {"min_new_tokens": 1},
        GENERATION_CONFIG,
        _GENERATION_SETTINGS,
    ),
    GuardTemplate(
        "output-agreement",
        "two generation paths must give mostly identical greedy outputs",
        {"min_identical_fraction": 0.95},
        GENERATE,
        _AGREEMENT,
    ),
    GuardTemplate(
        "completion-stats",
        "completions must stop on EOS and rarely be empty",
        {"min_eos_fraction": 0.9, "min_new_tokens": 3, "max_short_fraction": 0.05},
        GENERATE,
        _COMPLETIONS,
    ),
    GuardTemplate(
        "tokenizer-specials",
        "pad token set and distinct from EOS; chat template present when needed",
        {"require_chat_template": False, "require_distinct_pad": True, "max_violations": 0},
        TOKENIZER_BASE,
        _TOKENIZER,
    ),
    GuardTemplate(
        "loading-info",
        "fail on missing, mismatched or unexpected keys after loading",
        {"max_missing": 0, "max_unexpected": 0},
        LOAD_STATE_DICT,
        _LOADING,
    ),
)
