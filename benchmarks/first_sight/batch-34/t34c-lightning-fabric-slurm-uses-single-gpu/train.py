print("Devices available:", torch.cuda.device_count())
print("Devices specified:", devices)

fabric = L.Fabric(devices=[0,1,2,3], precision=precision, strategy=strategy, accelerator='gpu')
print(fabric.world_size)
fabric.launch()
