optimizer.load_state_dict(torch.load("optim.pt",map_location='cpu'))
accelerator.load_state("my_checkpoint")
