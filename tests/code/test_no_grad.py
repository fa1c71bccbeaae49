"""code.eval_without_no_grad: a forward pass for evaluation or inference with autograd on."""

from __future__ import annotations

import textwrap

from code_helpers import BATCH_1, CASES, file_findings, findings, fires

from trainwreck.analyzers import code
from trainwreck.evidence.collect import collect

ID = "code.eval_without_no_grad"


def test_fires_after_eval_in_the_batch_1_validation_loop() -> None:
    found = file_findings(BATCH_1 / "repro-torch-val-loss-accumulated-graph-oom" / "repro.py")
    assert (found[ID].values["line"], found[ID].values["why"]) == (45, "in a loop after .eval()")


def test_fires_on_the_diffusers_vae_snippet_that_never_trains() -> None:
    found = file_findings(BATCH_1 / "diffusers-vae-tiling-oom-no-grad-9648" / "snippet.py")
    assert found[ID].values["model"] == "vae"
    assert found[ID].values["why"] == "in a script that never calls backward()"


EVALUATE = textwrap.dedent(
    """
    def evaluate(model, loader):
        total = 0
        for x, y in loader:
            total += (model(x).argmax(1) == y).sum().item()
        return total
    """
)


def test_fires_in_an_evaluation_function_unless_every_call_is_under_no_grad() -> None:
    assert findings(EVALUATE)[ID].values["why"] == "in a loop inside evaluate()"
    guarded = EVALUATE + "\nwith torch.no_grad():\n    accuracy = evaluate(model, val_loader)\n"
    assert not fires(guarded, ID)


def test_quiet_when_autograd_is_off() -> None:
    for switch in ("@torch.no_grad()", "@torch.inference_mode()"):
        assert not fires(f"{switch}{EVALUATE}", ID), switch
    assert not fires("torch.set_grad_enabled(False)\n" + EVALUATE, ID)


def test_quiet_once_the_model_is_back_in_train_mode_or_the_loop_trains() -> None:
    source = """
        model.eval()
        model.train()
        for x, y in loader:
            out = model(x)
    """
    assert not fires(source, ID)
    trains = """
        model.eval()
        for x, y in loader:
            loss = criterion(model(x), y)
            loss.backward()
    """
    assert not fires(trains, ID)


def test_quiet_on_calls_that_are_not_a_bare_forward() -> None:
    source = """
        model = AutoModelForCausalLM.from_pretrained("gpt2")
        pipe = StableDiffusionPipeline.from_pretrained("sd")
        vae = AutoencoderKL.from_pretrained("vae")
        vae.requires_grad_(False)
        ids = model.generate(input_ids, max_new_tokens=20)
        image = pipe("a cat").images[0]
        latents = vae.encode(pixels)
    """
    assert not fires(source, ID)


def test_quiet_on_a_tokenizer_call_pasted_into_a_log() -> None:
    # transformers #4836 pastes `tokenizer = AutoTokenizer.from_pretrained(...)` and a call.
    evidence = collect([str(CASES / "transformers-tokenizers-pin-4836" / "train.log")])
    assert evidence.code
    assert ID not in {finding.id for finding in code.analyze(evidence)}
