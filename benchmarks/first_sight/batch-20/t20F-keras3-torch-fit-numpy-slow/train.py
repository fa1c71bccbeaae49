import os
os.environ["KERAS_BACKEND"] = "torch"
import keras
(x_train, y_train), _ = keras.datasets.mnist.load_data()
model = keras.Sequential([keras.layers.Flatten(), keras.layers.Dense(10, activation="softmax")])
model.compile(optimizer=keras.optimizers.Adam(), loss=keras.losses.SparseCategoricalCrossentropy(), metrics=[keras.metrics.SparseCategoricalAccuracy()])
model.fit(x_train, y_train, batch_size=200, epochs=5)
