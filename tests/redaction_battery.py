"""Secret forms planted where users leak them, and training-log text that must survive.

Every value is fake but has the real format's shape. `Form.secrets` are the
strings that must not appear in any output; `planted` is the text as it sits in
its medium (a log line, a YAML or JSON config, a pip freeze line, the symptoms, a
file name). A run directory holding them all is built by `write_run`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

HEX40 = "37b6d252e214456d1b3cd83c6bebd0b626cd16da"
KEY_BODY = (
    "CjGmvJdXV2TGI4PR/RKO3MvHQsEQtpiuoT9djsp9pVlQ+pjtoJzggRCap18kvu9K",
    "VzoGkkgxf8RucEJ/FvBXxMOrpLxaJ52LigWyYdgj38+4ey/ONPy+LBRUHH4AejvR",
    "CIP+Ph5RMk6hCqtK39qVRSoG80qf2GDWDQ7/bqMp7/FeYiCXJqMkOCw7ikHWLYs+",
    "180yrkog9qFE3G0zwIQI2Ha8BFjlA/8x/mNoRmDfNaXxU1A+Hd0T4ygzyFemk/nQ",
)


@dataclass(frozen=True)
class Form:
    name: str
    planted: str
    secrets: tuple[str, ...]


def _form(name: str, planted: str, *secrets: str) -> Form:
    return Form(name, planted, secrets)


def _pem(kind: str, body: tuple[str, ...], indent: str = "") -> str:
    lines = [f"-----BEGIN {kind}-----", *body, f"-----END {kind}-----"]
    return "\n".join(indent + line for line in lines)


LOG_FORMS = (
    _form(
        "hf token", "Using token hf_xEEsAoCaA2QTqpOoast0vQj8VMtbYo9Mqb", "xEEsAoCaA2QTqpOoast0vQj8"
    ),
    _form(
        "HF_TOKEN export",
        "+ export HF_TOKEN=hf_5jZMQObDDMOTsoYtxqAYfwFBHPl8KsLcsf",
        "5jZMQObDDMOTsoYtxqAYfwFBHPl8KsLcsf",
    ),
    _form(
        "huggingface-cli login flag",
        "+ huggingface-cli login --token hf_1YaHxpFjttuDDekSEU2aC13Fa61ESYhD1N",
        "1YaHxpFjttuDDekSEU2aC13Fa61ESYhD1N",
    ),
    _form(
        "HUGGING_FACE_HUB_TOKEN without a prefix",
        "HUGGING_FACE_HUB_TOKEN=q7Rt5Yu3Io1Pa9SdX2wQ",
        "q7Rt5Yu3Io1Pa9SdX2wQ",
    ),
    _form(
        "OpenAI project key",
        "judge client: sk-proj-9YZSYPx11JZsoO97ZRdKgafQQgk5jcyBxtoJklvSwONzW9VL",
        "9YZSYPx11JZsoO97ZRdKgafQQgk5jcyBxtoJklvSwONzW9VL",
    ),
    _form(
        "OpenAI legacy key",
        "OPENAI_API_KEY=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",
        "AI3pItATjwTg8AyFwjypT3BlbkFJB7KZ0BKWYPlmBJ8eWMyI",
    ),
    _form(
        "Anthropic key",
        "anthropic.Anthropic(api_key='sk-ant-api03-AgaHNpDQuwZDe8MXJS6lsfgNxXvN1G4rMdWnBgr9BpRI')",
        "AgaHNpDQuwZDe8MXJS6lsfgNxXvN1G4rMdWnBgr9BpRI",
    ),
    _form("AWS access key id", "botocore: using key AKIAXFYV5IJGX7ZSMCVS", "AKIAXFYV5IJGX7ZSMCVS"),
    _form("AWS session key id", "assumed role ASIAQKW9TTI11YARTS2X", "ASIAQKW9TTI11YARTS2X"),
    _form(
        "AWS secret access key",
        "aws_secret_access_key = +MQOMg7v+T1BciR8cIe//UWFMZOWIQIBjzSNwnb1",
        "+MQOMg7v+T1BciR8cIe//UWFMZOWIQIBjzSNwnb1",
    ),
    _form(
        "AWS session token",
        "export AWS_SESSION_TOKEN=L/VVzz1uXNkN/y5hNF4hXhpQjyzW55o7pdlSSJo/HlF3Bt+gfKcvaumxXYr",
        "L/VVzz1uXNkN/y5hNF4hXhpQjyzW55o7pdlSSJo/HlF3Bt+gfKcvaumxXYr",
    ),
    _form(
        "W&B key variable",
        "WANDB_API_KEY=1cb04d7a5c1c1ce140569d01304a29e4d9d24198",
        "1cb04d7a5c1c1ce140569d01304a29e4d9d24198",
    ),
    _form(
        "wandb login command",
        "+ wandb login 9ea28c9f033ac8e9680f062d47ad380a5bd9b656",
        "9ea28c9f033ac8e9680f062d47ad380a5bd9b656",
    ),
    _form(
        "wandb.login(key=...)",
        'wandb.login(key="1280038633ffb0028d3adfc7695755cb24064d28")',
        "1280038633ffb0028d3adfc7695755cb24064d28",
    ),
    _form(
        "GitHub classic token",
        "GITHUB_TOKEN=ghp_fFPb9jTo6z5xcIcQPzMuEGQ80YRP10eougTf",
        "fFPb9jTo6z5xcIcQPzMuEGQ80YRP10eougTf",
    ),
    _form(
        "GitHub OAuth token",
        "gh auth: gho_IhpazOc61hVRd82Wzj5OSqplLapHp6hgPjry",
        "IhpazOc61hVRd82Wzj5OSqplLapHp6hgPjry",
    ),
    _form(
        "GitHub app server token",
        "using ghs_AczD4UDDqcdbTmBQq79GygZnhAOgshDBj1zp for checkout",
        "AczD4UDDqcdbTmBQq79GygZnhAOgshDBj1zp",
    ),
    _form(
        "GitHub app user token",
        "token ghu_i4i4zBGozlxQF0l3AnQB2bFtKsh2eWYtVFpI expired",
        "i4i4zBGozlxQF0l3AnQB2bFtKsh2eWYtVFpI",
    ),
    _form(
        "GitHub refresh token",
        "refresh with ghr_PEnLCGiFJfWOQgUQudDfZFUWdGvIkgTxzsze",
        "PEnLCGiFJfWOQgUQudDfZFUWdGvIkgTxzsze",
    ),
    _form(
        "GitHub fine-grained token",
        "GH_PAT=github_pat_omDnTaOaovzMNndr5ObyOd_jQ9IS8onGY2O2IQ0OUV86rGbNNZZGnELEwiTDVT6lgmbf7",
        "omDnTaOaovzMNndr5ObyOd_jQ9IS8onGY2O2IQ0OUV86rGbNNZZGnELEwiTDVT6lgmbf7",
    ),
    _form(
        "token as URL user",
        f"fatal: unable to access 'https://{HEX40}@github.com/acme/data.git/'",
        HEX40,
    ),
    _form(
        "x-access-token URL",
        "git clone https://x-access-token:U9IUghtmRfBMVS60c187NPeN9zhmYC31@github.com/acme/ft.git",
        "U9IUghtmRfBMVS60c187NPeN9zhmYC31",
    ),
    _form(
        "GitLab token in a URL",
        "Cloning https://oauth2:glpat-NU5MP4fLi38BJlV5JN5i@gitlab.com/acme/llm.git",
        "NU5MP4fLi38BJlV5JN5i",
    ),
    _form(
        "GitLab deploy token",
        "CI_DEPLOY: gldt-mMkZnSUXMDHpnjBNscgoXq",
        "mMkZnSUXMDHpnjBNscgoXq",
    ),
    _form(
        "Slack bot token",
        "notify via xoxb-836214527704-8592757703044-Q3v5pFRgYGV7SxOP35cICwiL",
        "8592757703044-Q3v5pFRgYGV7SxOP35cICwiL",
    ),
    _form(
        "Slack user token",
        "SLACK_USER=xoxp-431893077250-214174057943-3515303830986-8666bae47e559b563dafabdba5e2ef29",
        "8666bae47e559b563dafabdba5e2ef29",
    ),
    _form(
        "Slack session token",
        "cookie xoxs-X0njMIh6rVneD2d9h8Vp1atIBPNibF",
        "X0njMIh6rVneD2d9h8Vp1a",
    ),
    _form(
        "Slack webhook",
        "POST https://hooks.slack.com/services/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",
        "qjC0uLBCOzBxY4QuRBzlsXKS",
    ),
    _form(
        "redis password",
        "Error connecting to redis://:R3dis-Pw-2024@cache.internal:6379/0",
        "R3dis-Pw-2024",
    ),
    _form(
        "postgres URL",
        "sqlalchemy: postgresql://mlflow:Pg-s3cret-77@db.internal:5432/mlflow",
        "Pg-s3cret-77",
    ),
    _form(
        "mongodb+srv URL",
        "MONGO_URI=mongodb+srv://trainer:M0ngoPass99@cluster0.abcde.mongodb.net/runs",
        "M0ngoPass99",
    ),
    _form(
        "MLflow tracking URI with credentials",
        "MLFLOW_TRACKING_URI=https://mlflow:Ml7fl0w-Pw@mlflow.acme.internal",
        "Ml7fl0w-Pw",
    ),
    _form("MLflow tracking password", "MLFLOW_TRACKING_PASSWORD=trk-pass-5521", "trk-pass-5521"),
    _form("MLflow tracking token", "MLFLOW_TRACKING_TOKEN=HnEevsclrQ8zfeby", "HnEevsclrQ8zfeby"),
    _form(
        "Authorization: token",
        'curl -H "Authorization: token CH2yPLwlw8VqGhBZRRdv" https://api.github.com/user',
        "CH2yPLwlw8VqGhBZRRdv",
    ),
    _form(
        "Authorization: Basic",
        "> Authorization: Basic dXNlcjpodW50ZXIyLXBhc3N3b3Jk",
        "dXNlcjpodW50ZXIyLXBhc3N3b3Jk",
    ),
    _form(
        "Authorization: Bearer",
        "headers={'Authorization': 'Bearer ya29.a0AfH6SMBx3di4EdTBkJUd4lLLVm2SzHdac'}",
        "ya29.a0AfH6SMBx3di4EdTBkJUd4lLLVm2SzHdac",
    ),
    _form(
        "Proxy-Authorization",
        "Proxy-Authorization: Basic cHJveHk6WjB4RlZVMktw",
        "cHJveHk6WjB4RlZVMktw",
    ),
    _form(
        "JWT",
        "id_token: eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9."
        "eyJOoFOmmtHxrDVFT6fypttV6VSNDHGf9Erw1VEdGs0D.jduxq_2IIdojekgVup4q6tKkdeWJLKM107lNdZx98dX",
        "eyJOoFOmmtHxrDVFT6fypttV6VSNDHGf9Erw1VEdGs0D",
    ),
    _form(
        "netrc machine line",
        f"machine api.wandb.ai login user password {HEX40[::-1]}",
        HEX40[::-1],
    ),
    _form("netrc password line", "  password Netrc-0nly-Pw", "Netrc-0nly-Pw"),
    _form("SECRET_TOKEN", "SECRET_TOKEN=ZoxFVU2KpioYvyek", "ZoxFVU2KpioYvyek"),
    _form("API_TOKEN", "API_TOKEN=apitok-short", "apitok-short"),
    _form(
        "PASSPHRASE, quoted with spaces",
        'PASSPHRASE="correct horse battery staple"',
        "horse battery staple",
    ),
    _form("CREDENTIALS", "CREDENTIALS=svc-user:Cr3dential-Pw", "Cr3dential-Pw", "svc-user"),
    _form("PASSWORD with a semicolon", "PASSWORD=Semi1Part;after-semicolon-9", "after-semicolon-9"),
    _form("DB_PASSWORD in YAML style", 'DB_PASSWORD: "hunter22-db"', "hunter22-db"),
    _form("--password flag", "python upload.py --password Fl4g-Pass-Word", "Fl4g-Pass-Word"),
    _form(
        "--hub_token flag without a prefix",
        "train.py --push_to_hub --hub_token ZTJ9sW2ZG2zQx",
        "ZTJ9sW2ZG2zQx",
    ),
    _form("login(token=...)", 'login(token="KeZGj4EBsF35Vz9CTW")', "KeZGj4EBsF35Vz9CTW"),
    _form(
        "Python attribute api_key",
        'openai.api_key = "u9hBPgCz4HGwPaon9uMiGj"',
        "u9hBPgCz4HGwPaon9uMiGj",
    ),
    _form(
        "JSON api_key in a log",
        '{"api_key": "CvN2d6FCJklEkMwZbLluQooD01", "model": "gpt-4o"}',
        "CvN2d6FCJklEkMwZbLluQooD01",
    ),
    _form(
        "Stripe live key",
        "billing: sk_live_P6DGPfaYckcHyVHa0peDaxro",
        "P6DGPfaYckcHyVHa0peDaxro",
    ),
    _form(
        "SendGrid key",
        "mail: 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",
        "6ScfAOrW1PNRJdwTpHdeBimnwwxoFPJTLZAMEMDG2SQ",
    ),
    _form(
        "npm token",
        "NPM_CONFIG=npm_UfeyZPqAtaoI8Y0ifMHKNUeA91nJ4umpbwnq",
        "UfeyZPqAtaoI8Y0ifMHKNUeA",
    ),
    _form(
        ".npmrc auth token",
        "//registry.npmjs.org/:_authToken=3f9c1d2e-7b4a-4c8e-9d1f-6a5b4c3d2e1f",
        "3f9c1d2e-7b4a-4c8e-9d1f-6a5b4c3d2e1f",
    ),
    _form(
        "PyPI token",
        "TWINE: pypi-AgEIcHlwaS5vcmchrwEgHJVwFd-JgG7T29UxT__Fq5-f3THtt4oyrJ8u3fUrp_m4fKUwx9r-1E7",
        "hrwEgHJVwFd-JgG7T29UxT__Fq5-f3THtt4oyrJ8u3fUrp",
    ),
    _form(
        "Google API key",
        "GET https://generativelanguage.googleapis.com/v1/models?key=AIzafGDF7vUWCqxm6WDAdpCIF6KDYMPEL4SmKEF",
        "fGDF7vUWCqxm6WDAdpCIF6KDYMPEL4SmKEF",
    ),
    _form(
        "Replicate token",
        "REPLICATE=r8_kqOgV41A63MNLcZieRxkhf7XdgzczDG5Jsq79",
        "kqOgV41A63MNLcZieRxkhf7XdgzczDG5Jsq79",
    ),
    _form(
        "Groq key",
        "client = Groq(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)",
        "M7mU5wItibb7VMovpfPxD0qheSvbC9uURCNdEsGsLj5JQSaF60AP",
    ),
    _form(
        "NVIDIA NGC key",
        "ngc: 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",
        "9X7VgfaSUVQnkHW8ggm_t-8_EQ1GA06RUi2a0PywXND5IBRneJb4Nu5tG4TR69zq",
    ),
    _form(
        "Databricks token",
        "DATABRICKS: dapic07011a911cabe58d66a6cd1957c991d",
        "c07011a911cabe58d66a6cd1957c991d",
    ),
    _form(
        "Telegram bot URL",
        "POST https://api.telegram.org/bot5113199414:hcnB0i964f3jOJd0pS0yrVFSsbO97lRzgBn/sendMessage",
        "hcnB0i964f3jOJd0pS0yrVFSsbO97lRzgBn",
    ),
    _form(
        "Discord webhook",
        "POST https://discord.com/api/webhooks/711019887143159718/cg4xhAofSfx6jY3LnwwiXqGOsbXX0ShE5o",
        "cg4xhAofSfx6jY3LnwwiXqGOsbXX0ShE5o",
    ),
    _form(
        "Square token",
        "square: sq0csp-MWnDRmcWIowaMFIXDZcf_7lz0CDrEZ-b_KFXt6W1xF9",
        "MWnDRmcWIowaMFIXDZcf_7lz0CDrEZ-b_KFXt6W1xF9",
    ),
    _form(
        "Mailchimp key",
        "mailchimp c5ae124aeac1ecbb2af2f4a7aa105e8f-us14",
        "c5ae124aeac1ecbb2af2f4a7",
    ),
    _form(
        "Artifactory token",
        "X-JFrog-Art-Api AKCif72q21d69SNhgl9cj21vMd8QM253MOJ6MMz2Tma9",
        "if72q21d69SNhgl9cj21vMd8QM253MOJ6MMz2Tma9",
    ),
    _form(
        "Azure storage connection string",
        "AZURE_STORAGE=DefaultEndpointsProtocol=https;AccountName=acmeml;"
        "AccountKey=HupwdX8XzBkFOTxt8Nyiq/ne7hJkBb1AmsKJ3UzCvGcGUcxnUCzeiaJvhlnjaQZQ==;"
        "EndpointSuffix=core.windows.net",
        "HupwdX8XzBkFOTxt8Nyiq/ne7hJkBb1AmsKJ3UzCvGcGUcxnUCzeiaJvhlnjaQZQ==",
    ),
    _form(
        "Azure SAS signature",
        "GET https://acme.blob.core.windows.net/data/shard-00.tar?sv=2022-11-02&se=2025-01-01"
        "&sig=vZjQnYVkUDn0XA%2BUhDQPnzhJdt6MxXBxYrKGuS8I0JT%3D",
        "vZjQnYVkUDn0XA%2BUhDQPnzhJdt6MxXBxYrKGuS8I0JT",
    ),
    _form(
        "AWS presigned URL",
        "GET https://acme.s3.amazonaws.com/ckpt.pt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        "&X-Amz-Signature=3fdb365d6f7f9428e4a6c1fa822b1a9209f9b51201630e381d54b1c6e9e03b32"
        "&X-Amz-Security-Token=JJ3ABkz3kSkESFS3Yo8sSf2%2Fm42ml982aQQH42KjxPdWgIqHn1pBt",
        "3fdb365d6f7f9428e4a6c1fa822b1a9209f9b51201630e381d54b1c6e9e03b32",
        "JJ3ABkz3kSkESFS3Yo8sSf2%2Fm42ml982aQQH42KjxPdWgIqHn1pBt",
    ),
    _form(
        "Kaggle key",
        "KAGGLE_KEY=9daac6a7e00b0edd2477051587bf1f47",
        "9daac6a7e00b0edd2477051587bf1f47",
    ),
    _form(
        "Comet key",
        "COMET_API_KEY=pUkxiAKn19fINeTKovZIWQRIZTi6aT",
        "pUkxiAKn19fINeTKovZIWQRIZTi6aT",
    ),
    _form(
        "Neptune token",
        "NEPTUNE_API_TOKEN=eyJhcGlfYWRkcmVzcyI6Imh0dHBzOi8vYXBwLm5lcHR1bmUuYWkifQ==",
        "eyJhcGlfYWRkcmVzcyI6Imh0dHBzOi8vYXBwLm5lcHR1bmUuYWkifQ",
    ),
    _form("client secret", "OAUTH_CLIENT_SECRET=GOCSPX-di4EdTBkJUd4", "GOCSPX-di4EdTBkJUd4"),
    _form(
        "X-API-Key header", "-H 'X-API-Key: afdba79d0d06d40640367c80e1a9aa77'", "afdba79d0d06d406"
    ),
    _form(
        "api-key header", "api-key: 1948ab372f1978c491bc06b2aabd9736", "1948ab372f1978c491bc06b2"
    ),
    _form("PGPASSWORD", "PGPASSWORD=pg-env-pass-31 psql -h db", "pg-env-pass-31"),
    _form(
        "pip extra index with credentials",
        "pip install --extra-index-url https://ci:P1p-Index-Pw@pypi.acme.internal/simple x",
        "P1p-Index-Pw",
    ),
    _form(
        "argparse Namespace hf_token",
        "Namespace(model='meta-llama/Llama-3-8B', hf_token='Hf-Namespace-Tok-77', lr=2e-05)",
        "Hf-Namespace-Tok-77",
    ),
    _form(
        "TrainingArguments hub_token",
        "TrainingArguments(output_dir=out, hub_token=Hub-Args-T0ken-5, seed=42)",
        "Hub-Args-T0ken-5",
    ),
    _form(
        "RSA private key block",
        _pem("RSA PRIVATE KEY", KEY_BODY[:2]),
        *KEY_BODY[:2],
    ),
    _form(
        "OpenSSH private key block",
        _pem("OPENSSH PRIVATE KEY", KEY_BODY[2:]),
        *KEY_BODY[2:],
    ),
    _form(
        "service-account key in one JSON line",
        '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n'
        + KEY_BODY[0][::-1]
        + '\\n-----END PRIVATE KEY-----\\n", "client_email": "ml@acme.iam.gserviceaccount.com"}',
        KEY_BODY[0][::-1][:40],
    ),
)

YAML_FORMS = (
    _form("YAML hub_token", "hub_token: Yaml-Hub-T0ken-42", "Yaml-Hub-T0ken-42"),
    _form(
        "YAML nested W&B key",
        "wandb:\n  project: llama3\n  api_key: b656d252e214456d1b3cd83c6bebd0b626cd1f00",
        "b656d252e214456d1b3cd83c6bebd0b626cd1f00",
    ),
    _form("YAML numeric password", "password: 90817263545", "90817263545"),
    _form(
        "YAML quoted passphrase",
        'ssh_passphrase: "yaml phrase with spaces"',
        "yaml phrase with spaces",
        "phrase with spaces",
    ),
    _form(
        "YAML nested secret",
        "credentials:\n  user: svc\n  secret: Yaml-Nested-Secret-9",
        "Yaml-Nested-Secret-9",
    ),
    _form(
        "YAML S3 secret key",
        "s3:\n  aws_secret_access_key: 7Rm2/Tq8Zp4Xw6Lk0Jh3Gf5Ds9Av1Bc2Nd4Ee6F",
        "7Rm2/Tq8Zp4Xw6Lk0Jh3Gf5Ds9Av1Bc2Nd4Ee6F",
    ),
    _form(
        "YAML private key block",
        "signing_key: |\n" + _pem("EC PRIVATE KEY", (KEY_BODY[3][::-1],), indent="  "),
        KEY_BODY[3][::-1],
    ),
)

JSON_VALUES = (
    ("hub_token", "Json-Hub-T0ken-11"),
    ("client_secret", "Json-Client-Secret-3"),
    ("api_key", 123456789012345),
    ("authorization", "Basic anNvbjpzZWNyZXQtYXV0aA=="),
)
JSON_FORMS = tuple(
    _form(f"JSON {key}", json.dumps({key: value}), str(value)) for key, value in JSON_VALUES
)

ENV_FORMS = (
    _form(
        "pip freeze URL with user and password",
        "acme-utils @ git+https://alice:Fr33ze-Pw@github.com/acme/acme-utils.git@1f2e3d4",
        "Fr33ze-Pw",
    ),
    _form(
        "pip freeze URL with a GitHub token",
        "acme-data @ git+https://ghp_Fr0zenToken0123456789abcdefghijABCD@github.com/acme/data.git",
        "Fr0zenToken0123456789abcdefghijABCD",
    ),
    _form(
        "pip freeze URL with a bare token",
        "acme-eval @ git+https://afdba79d0d06d40640367c80e1a9aa77f00d@github.com/acme/eval.git",
        "afdba79d0d06d40640367c80e1a9aa77f00d",
    ),
    _form(
        "editable install from GitLab with a token",
        "-e git+https://oauth2:glpat-EditableTok3nXYZ123@gitlab.com/acme/peft.git#egg=peft",
        "EditableTok3nXYZ123",
    ),
    _form(
        "index URL with credentials",
        "--index-url https://build:Ind3x-Pw@pypi.acme.internal/simple",
        "Ind3x-Pw",
    ),
)

SYMPTOMS_FORMS = (
    _form(
        "symptoms with a token",
        "loss went NaN after I logged in with hf_Sympt0mTokenAbCdEfGhIjKlMnOpQrStUv",
        "Sympt0mTokenAbCdEfGhIjKlMnOpQrStUv",
    ),
    _form("symptoms with a password", "DB_PASSWORD=Sympt0m-Pw was set", "Sympt0m-Pw"),
)

FILE_NAME_FORMS = (
    _form(
        "token in a log's name",
        "worker-hf_F1leNameTokenAbCdEfGhIjKlMnOpQrStU.log",
        "F1leNameTokenAbCdEfGhIjKlMnOpQrStU",
    ),
    _form(
        "token in a directory's name",
        "ghp_D1rNameTokenAbCdEfGhIjKlMnOpQrStUvW/launch.log",
        "D1rNameTokenAbCdEfGhIjKlMnOpQrStUvW",
    ),
    _form(
        "key id in a config's name",
        "override-AKIAF1LENAMEKEYID123.yaml",
        "AKIAF1LENAMEKEYID123",
    ),
)

FORMS = LOG_FORMS + YAML_FORMS + JSON_FORMS + ENV_FORMS + SYMPTOMS_FORMS + FILE_NAME_FORMS
SECRETS = tuple(secret for form in FORMS for secret in form.secrets)
SYMPTOMS = "; ".join(form.planted for form in SYMPTOMS_FORMS)

# Lines from real training logs and configs that must come through unchanged.
ORDINARY = (
    "{'loss': 1.8734, 'grad_norm': 0.9121, 'learning_rate': 1.98e-05, 'epoch': 0.12}",
    " 12%|█▏        | 120/1000 [01:02<07:38,  1.92it/s]",
    "step=120, skipped=0, lr=[1.9e-05], mom=[(0.9, 0.95)]",
    "max_grad_norm: 1.0",
    "tokenizer = AutoTokenizer.from_pretrained('meta-llama/Meta-Llama-3-8B')",
    "tokenizer_name_or_path: meta-llama/Meta-Llama-3-8B",
    "batch['token_type_ids'] has shape torch.Size([8, 512])",
    "num_tokens: 2048",
    "pad_token_id: 128001",
    "{'train_tokens_per_second': 2315.4, 'max_new_tokens': 512, 'token': 42}",
    "Special tokens: pad_token='<|finetune_right_pad_id|>', eos_token='<|eot_id|>'",
    'pad_token: "[PAD]"',
    "eos_token: </s>",
    "use_auth_token: true",
    "hub_token=<HUB_TOKEN>, push_to_hub_token=None",
    "--hub_token $HF_TOKEN --push_to_hub",
    "HF_TOKEN=${HF_TOKEN:?set it first}",
    "export WANDB_API_KEY=$(cat ~/.wandb_key)",
    "password: '********'",
    "password_min_length: 8",
    "key: lm_head.weight",
    "unexpected key: model.layers.0.self_attn.rotary_emb.inv_freq",
    "sort_key: length",
    "Missing key(s) in state_dict: model.embed_tokens.weight, lm_head.weight",
    "KeyError: 'input_ids'",
    "TOKENIZERS_PARALLELISM=false",
    "commit 5f0b02c75b57c5855da9ae460ce51323ea669d8a (ASIAN-subset eval)",
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "run_id=3f2b8c1e-9d4a-4e6b-8f1a-2c3d4e5f6a7b",
    "GPU-1e4a7c9b-3d2f-4a8e-9b6c-5d7e8f9a0b1c, NVIDIA A100-SXM4-80GB, 00000000:07:00.0",
    "MASTER_ADDR=tcp://10.0.0.12:29500 init_method=env://",
    "/root/.cache/huggingface/hub/models--meta-llama--Meta-Llama-3-8B/snapshots/"
    "62bd457b6fe961a42a631306577e622c83876cb6/config.json",
    "Downloading hf_transfer wheels; calling hf_hub_download(repo_id='meta-llama/Llama-3')",
    "peft @ git+https://github.com/huggingface/peft.git@v0.13.2",
    "acme-tools @ git+ssh://git@github.com/acme/tools.git@v1.2",
    "secretstorage==3.3.3",
    "keyring==24.3.0",
    "passlib==1.7.4",
    "scikit-learn==1.5.0 sk-video==1.1.10",
    "torch.distributed.elastic.multiprocessing.api: failed (exitcode: -9) Signal 9 (SIGKILL)",
    "wandb: W&B API key is configured. Use `wandb login --relogin` to force relogin",
    "the bearer of bad news: loss spiked at step 8120",
    "os.environ['HF_TOKEN'] is not set; passing token=None",
    "wandb.login(key=os.environ['WANDB_API_KEY'])",
)

# A real failure to diagnose: DeepSpeed-Chat's fp16 loss scale collapsing (the fix sets
# `bf16: true`, so the YAML below is patched and its diff carries context lines).
FAILURE_LOG = Path(__file__).parent / "cases" / "deepspeed-chat-loss-scale-min-531" / "train.log"


def _yaml_config() -> str:
    forms = "\n".join(form.planted for form in YAML_FORMS)
    return f"base_model: NousResearch/Meta-Llama-3-8B\n{forms}\nbf16: auto\ntf32: false\n"


def _json_config() -> str:
    return json.dumps({"output_dir": "out", **dict(JSON_VALUES)}, indent=2) + "\n"


def _pip_freeze() -> str:
    ordinary = [line for line in ORDINARY if "==" in line or " @ " in line]
    return "\n".join(["torch==2.3.1", *(form.planted for form in ENV_FORMS), *ordinary]) + "\n"


def write_run(root: Path) -> dict[str, Path]:
    """A run directory with every form planted; returns the files by role."""
    lines = [form.planted for form in LOG_FORMS] + list(ORDINARY)
    log_text = "\n".join(lines) + "\n" + FAILURE_LOG.read_text(encoding="utf-8")
    log_name, dir_log, config_name = (form.planted for form in FILE_NAME_FORMS)
    files = {
        "log": root / log_name,
        "dir_log": root / dir_log,
        "yaml": root / "config.yaml",
        "json": root / "train_args.json",
        "named_yaml": root / config_name,
        "env": root / "pip_freeze.txt",
    }
    files["dir_log"].parent.mkdir(parents=True)
    files["log"].write_text(log_text, encoding="utf-8")
    files["dir_log"].write_text("torchrun --nproc_per_node 8 train.py --bf16 false\n")
    files["yaml"].write_text(_yaml_config(), encoding="utf-8")
    files["json"].write_text(_json_config(), encoding="utf-8")
    files["named_yaml"].write_text("learning_rate: 2.0e-5\n", encoding="utf-8")
    files["env"].write_text(_pip_freeze(), encoding="utf-8")
    return files
