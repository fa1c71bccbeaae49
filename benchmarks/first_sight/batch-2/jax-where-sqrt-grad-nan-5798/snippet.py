f = lambda x: np.where(x<1., x, np.sqrt(x))
df = grad(f)
df(1e-9)  # evaluates to 1, as expected
df(0.0)   # evaluates to nan, presumably because the second case of the where is nan in that case
         # but it is the first case that should give the result, not the second!
