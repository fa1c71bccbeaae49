state_dict_options = StateDictOptions(full_state_dict=True, broadcast_from_rank0=True)
torch.distributed.checkpoint.state_dict.set_model_state_dict(model, local_state_dict, options=state_dict_options)
