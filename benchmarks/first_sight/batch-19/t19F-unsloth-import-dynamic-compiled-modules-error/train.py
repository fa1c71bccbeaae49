from unsloth import FastLanguageModel, PatchFastRL
