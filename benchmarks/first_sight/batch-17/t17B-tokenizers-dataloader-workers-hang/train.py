# -*- coding: utf-8 -*-

import os
from torch.utils.data import Dataset, DataLoader
from tokenizers import ByteLevelBPETokenizer


class ListDataset(Dataset):
    def __init__(self, data):
        self.data = data

    def __getitem__(self, index):
        return self.data[index]

    def __len__(self):
        return len(self.data)


class Collate:
    def __init__(self, tokenizer):
        self.tokenizer = tokenizer

    def __call__(self, batch):
        encoding = self.tokenizer.encode_batch(
            list(batch),
            add_special_tokens=True
        )
        return {'ids': [_.ids for _ in encoding], 'attention_mask': [_.attention_mask for _ in encoding]}


CURR_DIR = os.path.dirname(os.path.realpath(__file__))

data = ['This is a test sentence that is long, on purpose, YOLO right?.',
        'Tokenize this please.',
        ' Random 中文 words。', ]

######################
# Enabling this chunk causes code to stall, with or without `del tokenizer`
######################
# tokenizer = ByteLevelBPETokenizer()
# tokenizer.train('big.txt')
# tokenizer.save(directory=CURR_DIR, name=None)
# del tokenizer
######################
