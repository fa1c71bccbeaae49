"""What a secret looks like on one line: token shapes, and the contexts that mark one.

Each rule runs only when one of its trigger words occurs in the lowercased text,
and most patterns start with a literal the regex engine can search for quickly;
a lookbehind placed just after that literal checks the character before it.
Where a rule mirrors a plugin of the detect-secrets library, the comment names
it. detect-secrets itself is not used: its import (0.2 s) and its regex plugins
(0.16 ms a line) cost more than the redaction they would add to, and its
entropy plugins flag commit hashes and ordinary log lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

# The span to replace and what replaces it (a placeholder), or None to leave the match alone.
Verdict = tuple[int, int, str] | None
Judge = Callable[[str, re.Match[str]], Verdict]
PLACEHOLDER_PREFIX = "<redacted:"


def placeholder(label: str) -> str:
    """What stands in for a secret: it says what was removed, and never matches a rule."""
    return f"{PLACEHOLDER_PREFIX}{label}>"


class Rule(NamedTuple):
    """Replace what `judge` picks out of each match of `pattern`; the rest stays."""

    triggers: tuple[str, ...]  # lowercase words; the rule runs only if one occurs
    pattern: re.Pattern[str]
    judge: Judge
    lowered: bool = False  # match the lowercased text: the words are case-insensitive


def always(label: str) -> Judge:
    """Group `secret` of every match is a secret of this kind."""
    return lambda _subject, match: (*match.span("secret"), placeholder(label))


def _shape(label: str, triggers: tuple[str, ...], pattern: str) -> Rule:
    return Rule(triggers, re.compile(pattern), always(label))


# Tokens whose own shape gives them away, wherever they appear.
SHAPES: tuple[Rule, ...] = (
    _shape("hf-token", ("hf_",), r"(?P<secret>hf_(?<!\whf_)[A-Za-z0-9]{30,})\b"),
    _shape("anthropic-key", ("sk-ant-",), r"(?P<secret>sk-ant-(?<!\wsk-ant-)[\w-]{20,})"),
    # OpenAIDetector matches only the legacy `T3BlbkFJ` keys; project and service keys
    # mix case and digits too, and requiring both spares names like `sk-learn-...`.
    _shape(
        "openai-key",
        ("sk-",),
        r"(?P<secret>sk-(?<!\wsk-)(?:proj-|svcacct-|admin-)?"
        r"(?=[\w-]*[0-9])(?=[\w-]*[A-Z])[\w-]{20,})",
    ),
    # AWSKeyDetector (access key ids; the secret key is judged by its name, see names.py).
    _shape(
        "aws-access-key-id",
        ("akia", "asia", "abia", "acca", "a3t"),
        r"(?P<secret>(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])(?<!\w....)[A-Z0-9]{16})\b",
    ),
    # GitHubTokenDetector, plus the fine-grained `github_pat_` tokens that came after it.
    _shape(
        "github-token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        r"(?P<secret>(?:gh[pousr]|github_pat)_(?<!\wgh._)(?<!\wgithub_pat_)[A-Za-z0-9_]{20,})",
    ),
    # GitLabTokenDetector.
    _shape(
        "gitlab-token",
        ("glpat-", "gldt-", "glft-", "glsoat-", "glrt-", "glcbt-", "glimt-", "glptt-", "gloas-"),
        r"(?P<secret>gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|oas)-[\w-]{20,})",
    ),
    # SlackDetector: bot, user, app and refresh tokens, and incoming-webhook URLs.
    _shape("slack-token", ("xox",), r"(?P<secret>xox[abposr]-(?<!\wxox.-)[A-Za-z0-9-]{10,})"),
    _shape(
        "slack-webhook",
        ("hooks.slack.com",),
        r"hooks\.slack\.com/services/(?P<secret>[A-Za-z0-9_/]{20,})",
    ),
    # JwtTokenDetector: header and payload are base64url JSON objects (`{"` is `eyJ`).
    _shape(
        "jwt",
        ("eyj",),
        r"(?P<secret>eyJ(?<!\weyJ)[\w-]{10,}\.[\w-]{10,}\.[\w-]*)",
    ),
    # SendGridDetector.
    _shape("sendgrid-key", ("sg.",), r"(?P<secret>SG\.(?<!\wSG\.)[\w-]{22}\.[\w-]{43})"),
    _shape(  # StripeDetector (live keys), and test keys of the same shape
        "stripe-key",
        ("k_live_", "k_test_"),
        r"(?P<secret>[rs]k_(?<!\w[rs]k_)(?:live|test)_[0-9a-zA-Z]{16,})",
    ),
    _shape("square-token", ("sq0",), r"(?P<secret>sq0(?:csp|atp)-[\w-]{22,})"),  # SquareOAuth
    _shape("pypi-token", ("pypi-age",), r"(?P<secret>pypi-AgE[\w-]{50,})"),  # PypiTokenDetector
    _shape("npm-token", ("npm_",), r"(?P<secret>npm_(?<!\wnpm_)[A-Za-z0-9]{36})"),  # NpmDetector
    _shape(  # ArtifactoryDetector (its API tokens; its `AP...` passwords are too generic)
        "artifactory-token", ("akc",), r"(?P<secret>AKC(?<!\wAKC)[a-zA-Z0-9]{10,})"
    ),
    _shape("mailchimp-key", ("-us",), r"(?P<secret>\b[0-9a-f]{32}-us[0-9]{1,2})\b"),  # Mailchimp
    # Not in detect-secrets: key formats of services ML jobs call.
    _shape("google-api-key", ("aiza",), r"(?P<secret>AIza(?<!\wAIza)[\w-]{35})"),
    _shape("replicate-token", ("r8_",), r"(?P<secret>r8_(?<!\wr8_)[A-Za-z0-9]{37})"),
    _shape("groq-key", ("gsk_",), r"(?P<secret>gsk_(?<!\wgsk_)[A-Za-z0-9]{50,})"),
    _shape("nvidia-key", ("nvapi-",), r"(?P<secret>nvapi-[\w-]{40,})"),
    _shape("databricks-token", ("dapi",), r"(?P<secret>dapi(?<!\wdapi)[0-9a-f]{32})\b"),
    # TelegramBotTokenDetector, only inside the bot API's URLs: alone, `digits:35 chars`
    # has no literal a line could be checked for.
    _shape(
        "telegram-token", ("api.telegram.org",), r"api\.telegram\.org/bot(?P<secret>\d+:[\w-]{30,})"
    ),
    _shape("discord-webhook", ("/api/webhooks/",), r"/api/webhooks/(?P<secret>\d+/[\w-]{20,})"),
)


def _authorization(_subject: str, match: re.Match[str]) -> Verdict:
    scheme = match.group("scheme") or ""
    label = {"bearer": "bearer-token", "basic": "basic-auth"}.get(scheme.strip(), "credential")
    return (*match.span("secret"), placeholder(label))


_AUTH_SCHEMES = r"(?:bearer|token|basic|digest|apikey)"
# URL user-info: `scheme://user:password@host` keeps the user and the host; a port
# has no `@` after it. A password may hold `@`, so it runs to the last `@` before
# the path. A user alone is a token (`https://TOKEN@github.com`), except the `git`
# of an SSH remote.
_URL_PASSWORD = re.compile(r"://[^\s:/@\"'<>]*:(?P<secret>(?!<redacted:)[^\s/\"'<>]+)@")
_URL_USER = re.compile(r"://(?P<secret>(?!git@)[^\s:/@\"'<>]+)@")

# Secrets that words around them point at.
CONTEXTS: tuple[Rule, ...] = (
    Rule(
        ("wandb",),
        re.compile(r"wandb\s+login\s+(?:--relogin\s+)?(?P<secret>[\w-]{40,})"),
        always("wandb-key"),
        lowered=True,
    ),
    # `wandb.login(key="...")`, unless the key is read from the environment.
    Rule(
        ("wandb.login(",),
        re.compile(
            r"""wandb\.login\([^)\n]*?\bkey[ \t]*=[ \t]*["']?(?!os\.|none\b)"""
            r"""(?P<secret>[^"'\s,)<$]+)"""
        ),
        always("wandb-key"),
        lowered=True,
    ),
    # An HTTP header: `Authorization: Bearer|token|Basic <secret>`, quoted or not.
    Rule(
        ("authorization",),
        re.compile(
            r"""authorization["']?[ \t]*[:=][ \t]*["']?(?P<scheme>"""
            + _AUTH_SCHEMES
            + r"""[ \t]+)?(?!"""
            + _AUTH_SCHEMES
            + r"""\b)(?P<secret>[^\s"'`<,;]+)"""
        ),
        _authorization,
        lowered=True,
    ),
    Rule(
        ("bearer",),
        re.compile(r"bearer\s+(?P<secret>(?=[\w.~+/-]*[0-9])[\w.~+/-]{8,}=*)"),
        always("bearer-token"),
        lowered=True,
    ),
    # netrc: `machine host login user password secret`, or `password secret` on its own line.
    Rule(
        ("password",),
        re.compile(
            r"(?:\blogin[ \t]+\S+[ \t]+|^[ \t]*(?=password[ \t]+\S+[ \t]*$))"
            r"password[ \t]+(?P<secret>[^\s<]\S*)",
            re.MULTILINE,
        ),
        always("password"),
        lowered=True,
    ),
    Rule(("://",), _URL_PASSWORD, always("url-password")),  # BasicAuthDetector
    Rule(("://",), _URL_USER, always("url-credential")),
)
