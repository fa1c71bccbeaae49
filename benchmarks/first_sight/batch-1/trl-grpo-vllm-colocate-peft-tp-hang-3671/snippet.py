import argparse

import torch
from datasets import load_dataset
from peft import LoraConfig
from trl import GRPOConfig, GRPOTrainer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--use_peft", default=False, action="store_true")
    args = parser.parse_args()

    # Dataset
