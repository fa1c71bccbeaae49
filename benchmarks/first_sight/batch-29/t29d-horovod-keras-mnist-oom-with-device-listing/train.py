from tensorflow.python.client import device_lib
LOCAL_DEVICES = device_lib.list_local_devices()
