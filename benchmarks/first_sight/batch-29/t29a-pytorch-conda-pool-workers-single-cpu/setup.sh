conda create -n h python=3.10 -y
conda activate h
conda install -c conda-forge rdkit -y
conda install pytorch torchvision torchaudio pytorch-cuda=11.8 -c pytorch -c nvidia -y
