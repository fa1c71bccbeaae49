physical_devices = tf.config.list_physical_devices('GPU')
tf.config.set_logical_device_configuration(physical_devices[0],
    [tf.config.LogicalDeviceConfiguration(memory_limit=6144, experimental_priority=-1),
     tf.config.LogicalDeviceConfiguration(memory_limit=6144, experimental_priority=0)])
tf.config.list_logical_devices()
