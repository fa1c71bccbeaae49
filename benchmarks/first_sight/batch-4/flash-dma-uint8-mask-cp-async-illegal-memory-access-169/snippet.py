# File: /share/project/zhangjialing/A-scripts/dma/models/dma/modeling_doge.py, line 230
attn_output, attn_weights = attention_interface(
    self,
    query_states,
    key_states,
    value_states,
    attention_mask=attention_mask,
    attention_bias=attn_bias,
    scale=self.scaling,
)
