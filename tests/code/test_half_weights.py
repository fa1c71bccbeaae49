"""code.weights_cast_to_float16_for_training: float16 weights trained without mixed precision."""

from __future__ import annotations

from code_helpers import ROOT, file_findings, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.weights_cast_to_float16_for_training"
CASE = (
    ROOT
    / "benchmarks/first_sight/batch-32"
    / "t32b-sentence-transformers-crossencoder-predict-nan-after-fit"
)

LOOP = """
model = Net().{cast}
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for x, y in loader:
    {forward}
    loss.backward()
    optimizer.step()
"""


def _loop(cast: str = "half()", forward: str = "loss = F.mse_loss(model(x), y)") -> str:
    return LOOP.format(cast=cast, forward=forward)


def test_fires_on_the_sentence_transformers_thread_from_its_model_kwargs() -> None:
    """batch-32: `automodel_args = {"torch_dtype": torch.float16}` handed to CrossEncoder, then
    `model.fit(...)` with `use_amp` left commented out."""
    assert ID in file_findings(CASE / "train.py")


def test_fires_on_a_cast_model_trained_by_a_hand_written_loop() -> None:
    for cast in ("half()", "to(torch.float16)"):
        assert fires(_loop(cast=cast), ID), cast
    wrapper = """
        kwargs = {"torch_dtype": torch.float16}
        model = SentenceTransformer("all-MiniLM-L6-v2", model_kwargs=kwargs)
        model.fit(train_objectives=[(loader, loss)], epochs=1)
    """
    assert fires(wrapper, ID)


def test_quiet_under_mixed_precision_or_without_training() -> None:
    autocast = "with torch.autocast('cuda'):\n        loss = F.mse_loss(model(x), y)"
    assert not fires(_loop(forward=autocast), ID)
    assert not fires(_loop(cast="to(torch.bfloat16)"), ID)
    assert not fires(_loop(cast="cuda()"), ID)
    amp = """
        model = CrossEncoder("m", automodel_args={"torch_dtype": torch.float16})
        model.fit(train_dataloader=loader, epochs=1, use_amp=True)
    """
    assert not fires(amp, ID)
    inference = """
        model = AutoModelForCausalLM.from_pretrained("gpt2", torch_dtype=torch.float16)
        model.eval()
        out = model.generate(**inputs)
    """
    assert not fires(inference, ID)


def test_the_thread_is_answered_with_the_pure_fp16_page() -> None:
    """Before the detector the thread led with the bf16-pretrained overflow page (judged family)."""
    report = diagnose_folder(CASE)
    assert report.hypotheses[0].id == "pure-fp16-weights-no-master-copy"


def test_yields_to_an_adam_eps_that_float16_rounds_to_zero() -> None:
    """half_adam_default_eps names the sharper cause of the same weights (batch-8's repro)."""
    adam = _loop().replace("SGD(model.parameters(), lr=0.01)", "Adam(model.parameters())")
    assert not fires(adam, ID)
    assert fires(adam, "code.half_adam_default_eps")
