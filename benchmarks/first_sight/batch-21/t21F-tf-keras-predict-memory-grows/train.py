# tf_memleak.py

import os

import numpy as np
import psutil

# Disable GPU, use CPU only
os.environ['CUDA_VISIBLE_DEVICES'] = '-1'
import tensorflow as tf

print(tf.version.GIT_VERSION, tf.version.VERSION)

inputs = tf.keras.layers.Input((None, None, 3))
x = tf.keras.layers.Conv2D(filters=64, kernel_size=(3, 3), padding='same')(inputs)
model = tf.keras.models.Model(inputs=inputs, outputs=x)

for count in range(10000):
    memory_usage_in_MiB = psutil.Process().memory_info().rss / (1024 * 1024)
    print(f'Memory usage after {count} prediction(s):',
          f'{memory_usage_in_MiB:.3f} MiB',
          flush=True)
    image_shape = [*np.random.randint(128, 1024, (2,)).tolist(), 3]
    image = np.random.uniform(0, 256, image_shape)
    model.predict(image[np.newaxis])
