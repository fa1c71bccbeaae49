self.classes = list(range(2))
self.image_classes = calc_classes_per_image(self.masks, 2, cache_file)
