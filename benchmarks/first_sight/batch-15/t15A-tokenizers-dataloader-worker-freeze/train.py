import torch
import tokenizers

TEST_TOKENIZER = tokenizers.ByteLevelBPETokenizer(
    vocab_file=f"roberta-base/vocab.json", 
    merges_file=f"roberta-base/merges.txt", 
    lowercase=True,
    add_prefix_space=True
)

test = TEST_TOKENIZER.encode("this is a test.")

TOKENIZER = tokenizers.ByteLevelBPETokenizer(
    vocab_file=f"roberta-base/vocab.json", 
    merges_file=f"roberta-base/merges.txt", 
    lowercase=True,
    add_prefix_space=True
)

class Dataset:
    def __init__(self, texts):
        self.texts = texts
        self.tokenizer = TOKENIZER
    
    def __len__(self):
        return len(self.texts)

    def __getitem__(self, item):
        data = self.tokenizer.encode(self.texts[item])
        return data

texts = ['This is another test from data_loader', 
    'This is the second test from data_loader']
