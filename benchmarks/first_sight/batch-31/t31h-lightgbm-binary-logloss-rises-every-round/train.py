lgb_train = lgb.Dataset(train_x, label=train_y,\
        feature_name=attributes[0:-1], categorical_feature=attributes[-3:-1] )
lgb_eval = lgb.Dataset(test_x, label=test_y, reference=lgb_train)
params = {
    'task': 'train',
    'boosting_type': 'gbdt', #rf
    'objective': 'binary',
    'metric': {'binary_logloss'},
    'num_leaves': 31,
    'learning_rate': 0.05,
    'max_depth':8,
    'feature_fraction': 0.9,
    'bagging_fraction': 0.8,
    'bagging_freq': 5,
    'verbose': 0,
    'is_unbalance':True,
    'scale_pos_weight':9.2,
    'is_training_metric':True,
    'lambda_l1':0,
    'lambda_l2':0,
}
bst = lgb.train(params, lgb_train, num_boost_round=900, valid_sets=[lgb_train,lgb_eval],early_stopping_rounds=100)
#lgb.cv(param, lgb_train, num_round, nfold=5)
