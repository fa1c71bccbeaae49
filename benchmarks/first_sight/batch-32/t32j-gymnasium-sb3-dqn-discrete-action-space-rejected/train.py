import gymnasium as gym
# import gym

from stable_baselines3 import DQN
from stable_baselines3.common.vec_env.dummy_vec_env import DummyVecEnv
from stable_baselines3.common.evaluation import evaluate_policy


env = gym.make("LunarLander-v2")
env = DummyVecEnv([lambda : env])
model = DQN(
    "MlpPolicy", 
    env=env,
    verbose=1
)
