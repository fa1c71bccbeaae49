"""code.generate_output_read_with_prompt: a decoder-only output counted or decoded whole."""

from __future__ import annotations

import pytest
from code_helpers import fires

COUNTED = "code.generate_output_counted_with_prompt"
DECODED = "code.generate_output_decoded_with_prompt"
SCRIPT = """
model = AutoModelForCausalLM.from_pretrained(name)
input_ids = tokenizer(prompt, return_tensors="pt").input_ids
outputs = model.generate({call})
{use}
"""


def _script(use: str, call: str = "input_ids=input_ids, max_new_tokens=64") -> str:
    return SCRIPT.format(use=use, call=call)


@pytest.mark.parametrize(
    ("use", "finding"),
    [
        ("n = len(outputs[0])", COUNTED),
        ("n = outputs.shape[1]", COUNTED),
        ("text = tokenizer.decode(outputs[0], skip_special_tokens=True)", DECODED),
        ("texts = tokenizer.batch_decode(outputs)", DECODED),
    ],
)
def test_fires_on_a_whole_output_counted_or_decoded(use: str, finding: str) -> None:
    assert fires(_script(use), finding)
    assert not fires(_script(use), DECODED if finding == COUNTED else COUNTED)


@pytest.mark.parametrize("call", ["**inputs, max_new_tokens=64", "input_ids, max_new_tokens=64"])
def test_fires_for_the_usual_ways_of_passing_the_prompt(call: str) -> None:
    assert fires(_script("n = len(outputs[0])", call), COUNTED)


@pytest.mark.parametrize(
    "source",
    [
        _script("new = outputs[:, input_ids.shape[1]:]\ntext = tokenizer.decode(new[0])"),
        _script("text = tokenizer.decode(outputs[0][input_ids.shape[1]:])"),
        # an encoder-decoder model returns only the decoder side
        _script("text = tokenizer.decode(outputs[0])").replace(
            "AutoModelForCausalLM", "AutoModelForSeq2SeqLM"
        ),
        # vLLM's generate takes prompts and returns request objects
        _script("text = outputs[0].outputs[0].text", call="prompts, sampling_params"),
    ],
)
def test_quiet_when_the_prompt_is_sliced_off_or_not_returned(source: str) -> None:
    assert not fires(source, COUNTED)
    assert not fires(source, DECODED)
