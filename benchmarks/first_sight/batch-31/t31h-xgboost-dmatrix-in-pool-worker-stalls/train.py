from multiprocessing.pool import Pool
import numpy as np
import xgboost as xgb


def worker():
    rng = np.random.default_rng(1)
    data = rng.random((100, 2))
    label = rng.integers(2, size=100)
    # It only works if `nthread = 1`
    dtrain = xgb.DMatrix(data, label=label, nthread=2)


def main():
    pool = Pool(1)
    r = pool.apply_async(worker)
    r.get()
    pool.close()
    pool.join()
    worker()

if __name__ == '__main__':
    main()
    # The 2nd time it deadlock
    main()
    print('done')
