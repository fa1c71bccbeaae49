def set_fsdp2_env():
    os.environ["ACCELERATE_USE_FSDP"] = 'true'
    os.environ["FSDP_AUTO_WRAP_POLICY"] = 'TRANSFORMER_BASED_WRAP'
    # os.environ["FSDP_BACKWARD_PREFETCH"] = 'BACKWARD_PRE' # removed for fsdp2
    os.environ["FSDP_TRANSFORMER_CLS_TO_WRAP"] = 'QwenImageTransformerBlock'
    os.environ["FSDP_TRANSFORMER_LAYER_CLS_TO_WRAP"] = 'QwenImageTransformerBlock'
    os.environ["FSDP_CPU_RAM_EFFICIENT_LOADING"] = 'false'
    # os.environ["FSDP_SHARDING_STRATEGY"] = "FULL_SHARD" # only for fsdp1
    os.environ["FSDP_RESHARD_AFTER_FORWARD"] = "true" # only for fsdp2, equal to "FULL_SHARD" in fsdp1
    os.environ["FSDP_STATE_DICT_TYPE"] = "SHARDED_STATE_DICT" # "SHARDED_STATE_DICT" for fsdp2
    # os.environ["FSDP_SYNC_MODULE_STATES"] = "false" # redundant for fsdp2    
    # os.environ["FSDP_USE_ORIG_PARAMS"] = 'true' # removed for fsdp2
