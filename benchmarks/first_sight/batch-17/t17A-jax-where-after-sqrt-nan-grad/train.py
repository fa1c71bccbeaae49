def test_fail(x):
  x = np.sqrt(np.sum(x ** 2, axis=1))
  ones = np.ones_like(x)
  x = np.where(x > 0.5, x, ones)
  return np.sum(x)

def test_succeed(x):
  x = np.sum(x ** 2, axis=1)
  ones = np.ones_like(x)
  x = np.sqrt(np.where(x > 0.5, x, ones))
  return np.sum(x)

x = np.array([[1, 2], [3, 4], [0, 0]], dtype=np.float64)

print('Test np.sqrt then np.where = {}'.format(test_fail(x)))
print('Gradient:')
print(grad(test_fail)(x))

print('Test np.where then np.sqrt = {}'.format(test_succeed(x)))
print('Gradient:')
print(grad(test_succeed)(x))
