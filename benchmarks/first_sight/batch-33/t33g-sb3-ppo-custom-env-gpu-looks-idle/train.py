env = MarketEnv(df_indicators_list)

model = sb.PPO(sb.ppo.MlpPolicy, env, tensorboard_log='log')
model.learn(390 * 500)
