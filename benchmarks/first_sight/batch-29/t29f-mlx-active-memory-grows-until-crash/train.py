class Critic(nn.Module):
    def __init__(self, dim, label_dim, n_layer, activation='relu'):
        super().__init__()
        self.activation = activation
        critic_h_dim = 4 * dim
        self.init_fn = nn.init.glorot_uniform()
        self.final = nn.Linear(critic_h_dim, label_dim)
        # Initial projection
        self.first_block = nn.Sequential(
            nn.Linear(dim, critic_h_dim),
            nn.BatchNorm(critic_h_dim)
        )
        # Hidden residual blocks
        self.hidden_blocks = ModuleList([
            nn.Sequential(
                nn.Linear(critic_h_dim, critic_h_dim),
                nn.BatchNorm(critic_h_dim)
            )
            for _ in range(n_layer-1)
        ])
