import datasets
ds = datasets.load_dataset('bigcode/the-stack-dedup', streaming=True)
