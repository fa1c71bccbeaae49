"""code.softmax_without_max_shift: exp of unshifted logits divided by their sum."""

from __future__ import annotations

import pytest
from code_helpers import CASES, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.softmax_without_max_shift"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("p = torch.exp(x) / torch.exp(x).sum(dim=1, keepdim=True)", True),
        ("p = jnp.exp(x) / jnp.sum(jnp.exp(x), axis=-1, keepdims=True)", True),
        ("e = logits.exp()\np = e / e.sum(-1, keepdim=True)", True),
        ("lse = torch.log(torch.sum(torch.exp(x), dim=1))", True),
        # a masked softmax: the mask multiplied in does not bound the exponent (batch-14)
        ("e = torch.exp(s) * mask\nw = e / e.sum(dim=1, keepdim=True)", True),
        ("e = torch.exp(s - s.max(1, keepdim=True).values) * mask\nw = e / e.sum(1)", False),
        # shifted by the row maximum, directly or through a name
        (
            "z = x - x.max(dim=1, keepdim=True).values\np = z.exp() / z.exp().sum(1, keepdim=True)",
            False,
        ),
        ("m = jnp.max(x, axis=-1, keepdims=True)\ne = jnp.exp(x - m)\np = e / e.sum(-1)", False),
        ("p = torch.exp(x - torch.logsumexp(x, 1, keepdim=True))", False),
        # clamped before exp
        ("e = torch.exp(x.clamp(max=50))\np = e / e.sum()", False),
        # a ratio of exps that is no softmax: different exponents
        ("r = torch.exp(a) / torch.exp(b).sum()", False),
        ("w = torch.exp(-d ** 2) / sigma", False),
    ],
)
def test_fires_only_on_an_unshifted_exponent(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_raw_count_classifier_gets_its_page() -> None:
    # A CPU reproduction (logits reach 94.6 at step 8): the generic loss-non-finite page led
    # before this detector.
    report = diagnose_folder(CASES / "repro-hand-written-softmax-overflow")
    assert report.hypotheses[0].id == "softmax-without-max-shift-overflows"
