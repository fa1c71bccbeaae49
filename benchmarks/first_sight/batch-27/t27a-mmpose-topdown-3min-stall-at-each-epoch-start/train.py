        self.call_hook('before_train_epoch')
        time.sleep(2)  # Prevent possible deadlock during epoch transition
        for i, data_batch in enumerate(self.data_loader):
            self._inner_iter = i

        self.call_hook('before_train_epoch')
        time.sleep(2)  # Prevent possible deadlock during epoch transition
        print('before_train_epoch, time:{}'.format(time.time()-start_time))
        start_time = time.time()
        for i, data_batch in enumerate(self.data_loader):
            self._inner_iter = i
