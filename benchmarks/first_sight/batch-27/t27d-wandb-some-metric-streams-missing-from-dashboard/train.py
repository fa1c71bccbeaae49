wandb.log({prefix + key: stats[key].val}, step=step)
