import ray
import torch
ray.init(num_cpus=8)

@ray.remote(num_cpus=4)
class Trainer(object):
    def __init__(self, batch_size):
        self.get_data_loader(batch_size)
        self.device='cpu'
        self.build_model(self.device)
        self.loss_fn = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=1e-3)
        print(torch.get_num_threads())  # this line yields 1 cpu cores!
...
