from sentence_transformers import SentenceTransformer
smodel = SentenceTransformer('sentence-transformers/all-mpnet-base-v2')

text = "This is not a pipe."

print(smodel.tokenize([text])['input_ids'])
print(smodel.encode([text])[0,:5])

from transformers import AutoModel, AutoTokenizer
model = AutoModel.from_pretrained('sentence-transformers/all-mpnet-base-v2')
tokenizer = AutoTokenizer.from_pretrained('sentence-transformers/all-mpnet-base-v2')

input = tokenizer(text, return_tensors="pt")
print(input['input_ids'])
    
output = model(**input).last_hidden_state.squeeze().detach().numpy().mean(axis=0)
print(output[:5])
