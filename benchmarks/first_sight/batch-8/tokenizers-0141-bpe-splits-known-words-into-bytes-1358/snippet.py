from tokenizers import Tokenizer
test = Tokenizer.from_file("tokenizer.txt")
print(test.encode("hello world").tokens)
