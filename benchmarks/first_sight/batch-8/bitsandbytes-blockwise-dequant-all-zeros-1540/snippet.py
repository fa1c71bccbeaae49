import torch
from bitsandbytes.functional import quantize_blockwise, dequantize_blockwise

if __name__ == "__main__":
    
    test_torch = torch.ones([5, 10], dtype=torch.float16)

    quantized, quantized_state = quantize_blockwise(test_torch)
    absmax = quantized_state.absmax
    code = quantized_state.code

    dequantized = dequantize_blockwise(quantized, absmax=absmax, code=code)
    print(dequantized)

    dequantized = dequantize_blockwise(quantized, quant_state=quantized_state)
    print(dequantized)
