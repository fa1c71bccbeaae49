"""Schema of a knowledge-base pattern: one YAML file per failure pattern.

A pattern is a page a person can read, `kb search` can return and the engine can
match. `docs/kb-patterns.md` explains each field for authors; this module is the
single definition the loader validates against.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from trainwreck.model import Category, Hardware, Phase, Scalar

Cost = Literal["seconds", "minutes", "hours", "run"]
COST_ORDER: dict[str, int] = {"seconds": 0, "minutes": 1, "hours": 2, "run": 3}
Framework = Literal[
    "pytorch",
    "cuda",
    "nccl",
    "transformers",
    "peft",
    "trl",
    "accelerate",
    "deepspeed",
    "vllm",
    "sglang",
    "tgi",
    "bitsandbytes",
    "flash-attn",
    "lightning",
    "jax",
    "tensorflow",
    "keras",
    "numpy",
    "python",
    "xformers",
    "apex",
    "triton",
    "tokenizers",
    "datasets",
    "megatron",
    "diffusers",
    "ray",
    "llama-cpp",
    "mlx",
    "xgboost",
    "lightgbm",
    "catboost",
    "paddle",
]
PATTERN_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# Validation context for the compiled knowledge base (kb/compiled.py): its pages were
# validated in full when it was built, and a test rebuilds it, so loading it skips
# compiling every regex (most are never compiled at run time: see evidence/literals.py).
TRUSTED = {"trusted": True}


def _check_compiles(pattern: str, info: ValidationInfo) -> None:
    """Raise ValueError when a regex does not compile; skipped for trusted data."""
    if info.context and info.context.get("trusted"):
        return
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"does not compile: {exc}") from exc


class Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Signature(Strict):
    """One way a pattern recognises its failure in the evidence.

    Exactly one of the matchers is set. `weight` is how strongly a hit alone
    points at this pattern (0-1); hits combine as 1 - prod(1 - weight).
    A `required` signature must hit for the pattern to be a candidate at all.
    Signatures that share a `group` are alternatives: a required group needs
    one of its members to hit (the error message, or the code that causes it).
    """

    regex: str | None = None
    exception: str | None = None
    finding: str | None = None
    frame: str | None = None
    weight: float = Field(default=0.6, gt=0.0, le=1.0)
    required: bool = False
    group: str | None = None
    any_role: bool = False

    @model_validator(mode="after")
    def _one_matcher(self, info: ValidationInfo) -> Signature:
        set_fields = [
            name for name in ("regex", "exception", "finding", "frame") if getattr(self, name)
        ]
        if len(set_fields) != 1:
            raise ValueError(
                f"a signature needs exactly one of regex/exception/finding/frame, got {set_fields}"
            )
        for name in ("regex", "frame"):
            pattern = getattr(self, name)
            if pattern is not None:
                try:
                    _check_compiles(pattern, info)
                except ValueError as exc:
                    raise ValueError(f"{name} {exc}") from exc
        return self


class VersionRange(Strict):
    package: str
    specifier: str
    fixed_in: str | None = None


class PatternChange(Strict):
    """A config change. `before`/`after` may name a regex group as "{group}".

    `direction` says which way the mechanism needs a number to move (a "too
    many sequences" cause lowers `--max-num-seqs`), so a recommendation is
    never applied against it when the user's value is already past it; `either`
    says the author checked that no single way is right (a divisor of a count).
    """

    path: str
    before: Scalar | list[Scalar] = None
    after: Scalar | list[Scalar] = None
    default: Scalar | list[Scalar] = None
    direction: Literal["lower", "higher", "either"] | None = None
    reason: str | None = None
    key_source: str | None = None
    available: VersionRange | None = None


class PatternFix(Strict):
    """A fix recipe. `when` offers it only if one of those analyzer findings holds;
    `unless` withholds it if one does (advice the evidence contradicts, such as more
    memory for a request no machine can hold); `requires` offers it only to a run that
    shows one of those frameworks (advice for PEFT users in a PEFT run only)."""

    action: str
    when: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()
    requires: tuple[Framework, ...] = ()
    changes: tuple[PatternChange, ...] = ()
    commands: tuple[str, ...] = ()
    cost: Cost = "minutes"
    destructive: bool = False


def _https(url: str) -> str:
    if not url.startswith("https://"):
        raise ValueError("a cited source must be an https URL")
    return url


# Every source the knowledge base cites (pages, priors) is a public https address.
HttpsUrl = Annotated[str, AfterValidator(_https)]


class PatternCitation(Strict):
    url: HttpsUrl
    detail: str


class GuardCode(Strict):
    """A guard as code: a template of `fixes.guards` and the thresholds that fill it.

    A param may be "{group}" to take the value the log printed (else the template default).
    `kb lint` checks the template and its params against `fixes.guards` (a layer above).
    """

    template: str
    params: dict[str, Scalar | list[Scalar]] = Field(default_factory=dict)


class PatternPrevention(Strict):
    guard: str
    threshold: str
    code: GuardCode | None = None


class PatternExamples(Strict):
    cases: tuple[str, ...] = ()
    fires: tuple[str, ...] = ()
    quiet: tuple[str, ...] = ()


class Pattern(Strict):
    id: str
    aliases: tuple[str, ...] = ()
    title: str
    category: Category
    # The page applies to whatever failure class the run states (a release regression can
    # slow, break or NaN a run); `category` is its class when the run states none.
    any_class: bool = False
    # Other classes users report for the same mechanism (NaN latents decode to black images:
    # a wrong output to the user); a run stating one of them is not off-class for the page.
    seen_as: tuple[Category, ...] = ()
    frameworks: tuple[Framework, ...]

    @property
    def classes(self) -> tuple[Category, ...]:
        """The failure classes a run may state for this page: its own and `seen_as`."""
        return (self.category, *self.seen_as)

    @property
    def seen_in_code(self) -> bool:
        """A required signature is a code detector's finding: the mistake is visible in the
        user's code, so code that was read without it firing argues against the page."""
        return any(
            sig.required and (sig.finding or "").startswith("code.") for sig in self.signatures
        )

    @property
    def speaks_through_finding(self) -> bool:
        """The page's cause is what its required finding established, its title filled from
        the finding's values ("{library} refused ..."): words alone cannot retrieve it."""
        required = [sig for sig in self.signatures if sig.required]
        return bool(required) and all(sig.finding for sig in required) and "{" in self.title

    # The symptoms' words retrieve this page only when they name one of its keywords: a
    # hardware fault reads, in words, like any hang or crash (a watchdog timeout, a rank
    # that died); what says it is the fault's own line ("Xid 79", "uncorrectable ECC").
    keywords_only: bool = False
    # The frameworks a run must show for this page to apply (any one of them); a page
    # for a framework the evidence never shows does not rank on a shared word alone.
    requires: tuple[Framework, ...] = ()
    # The hardware the page is about (any one of them): an Apple-MPS or TPU page does not
    # rank in a run that shows CUDA, unless its own message matched.
    hardware: tuple[Hardware, ...] = ()
    # The phases the page's failure happens in (any one): an extension that fails to build
    # fails at install, so a run that failed mid-training does not get it unless its own
    # message matched. Empty: any phase.
    phases: tuple[Phase, ...] = ()
    # The page's memory climbs with the run (something kept per step, per epoch, per worker
    # read), so a user who says memory grows describes it; an out-of-memory page without it
    # takes its memory at once, which the growth the user saw argues against.
    memory_grows: bool = False
    signatures: tuple[Signature, ...] = Field(min_length=1)
    excludes: tuple[str, ...] = ()
    # Analyzer findings that contradict the page's mechanism (a NaN before any optimizer
    # step rules out "the update was too large"): any one removes the page.
    ruled_out_by: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    root_cause: str
    mechanism: str
    conditional: bool = False
    # A catch-all page: names the failure family ("loss became NaN") rather than one cause.
    # A specific page that matches ranks above it, and it is never High.
    generic: bool = False
    # The page names what failed, not why (the message itself: a NaN loss, a gloo
    # timeout, a refused allocation): a page of its class the user's description names
    # among the best ranks above it.
    restates_failure: bool = False
    prior: float = Field(default=0.5, ge=0.0, le=1.0)
    fixes: tuple[PatternFix, ...] = Field(min_length=1)
    discriminator: str
    discriminator_cost: Cost = "minutes"
    affected: tuple[VersionRange, ...] = ()
    citations: tuple[PatternCitation, ...] = Field(min_length=1)
    prevention: tuple[PatternPrevention, ...] = ()
    examples: PatternExamples = Field(default_factory=PatternExamples)

    @field_validator("id")
    @classmethod
    def _id_is_slug(cls, value: str) -> str:
        if not PATTERN_ID.match(value):
            raise ValueError("id must be lowercase words joined by hyphens")
        return value

    @field_validator("signatures")
    @classmethod
    def _groups_agree(cls, values: tuple[Signature, ...]) -> tuple[Signature, ...]:
        required: dict[str, set[bool]] = {}
        for signature in values:
            if signature.group is not None:
                required.setdefault(signature.group, set()).add(signature.required)
        mixed = sorted(name for name, flags in required.items() if len(flags) > 1)
        if mixed:
            raise ValueError(f"every signature of a group is required or none is: {mixed}")
        return values

    @field_validator("excludes")
    @classmethod
    def _excludes_compile(cls, values: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        for pattern in values:
            _check_compiles(pattern, info)
        return values
