labels_inv_normalization_layer = layers.Normalization(invert=True, input_shape=[1,], axis=None)
labels_inv_normalization_layer.adapt(np_labels_training)

predictors_normalization_layer = layers.Normalization()
predictors_normalization_layer.adapt(np_predictors_training)

input_layer = keras.layers.Input(shape=(np_predictors_training.shape[1], ))
normalized_input = predictors_normalization_layer(input_layer)
fully_connected_1 = keras.layers.Dense(60, activation="relu")(normalized_input)
fully_connected_2 = keras.layers.Dense(60, activation="relu")(fully_connected_1)
