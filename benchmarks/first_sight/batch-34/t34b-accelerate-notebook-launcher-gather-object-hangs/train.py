distributed_state = Accelerator()
if distributed_state.is_main_process:
  print(gather_object(txt_out)[0])
  print(gather_object(txt_out)[1])

# Also happen if I use the generic gather function from torch
dist.gather_object(
  txt_out_across_devices if dist.get_rank() == 0 else None,
  txt_out,
  dst=0
)
