"""The phrases that state each failure class in a user's description, read by stated.py.

One pattern per class, written from the words users put in issue titles and
descriptions on the first-sight batches ("loss stuck at 2.3", "hangs at step 0",
"generates gibberish"); the comments name the batch a phrase came from.
"""

from __future__ import annotations

import re

from trainwreck.model import Category

# "mAP", the detection metric, lowercased; not a datasets `.map` step ("the dataset-building map
# step just gets stuck" is a hang, batch-26).
_MAP_METRIC = r"(?<!\.)map(?! (?:step|stage|phase|call|function|process\w*|workers?|operation))"

# After a verb like "return": no object follows, so the call itself is what never came back.
_NO_OBJECT = (
    r"(?! (?:the|a|an|its|their|any|correct\w*|same|right|expected|identical|exact|values?|"
    r"results?|outputs?|vectors?|tensors?|none|true|false)\b)"
)

# Read in this order; each class's matches are masked before the next is tried.
# `crash` is last and needs a word that says crash: "error", "fails" or "exception" state no
# class at all (they accompany every class), so such a description leaves the class to the log.
SYMPTOM_RULES: tuple[tuple[Category, re.Pattern[str]], ...] = (
    (
        "oom",
        re.compile(
            # "memory creeps up until it overflows" is an OOM, not a numeric overflow
            r"memory\b[^.;]{0,60}?\boverflow\w*|out[- ]of[- ]memory|\boom(?:s|ed|ing)?\b|"
            # "the memory is not released ... and keeps creeping up slowly" (batch-32's Paddle
            # thread): memory that creeps up, with the "slowly" that is no slow run
            r"\bmemory\b[^.;]{0,80}?\b(?:creep\w*|climb\w*) up(?: slowly)?|"
            r"\bmemory (?:is |was )?(?:not|never) (?:released|freed)|"
            r"oom[- ]?kill\w*|"
            r"(?:can'?t|cannot|failed to|unable to) allocate|not enough (?:\w+ )?memory|"
            r"\b(?:memory|ram|vram|rss) (?:\w+ )?"
            r"(?:grows|growing|increas\w*|ris(?:es|ing)|climb\w*|"
            r"leak\w*|keeps|explod\w*|spike\w*|usage (?:grows|increas\w*|keeps))|"
            # "all 12 GB of RAM are used up", "it uses up all the GPU memory"
            r"(?:memory|ram|vram) (?:is |are |was |were |gets? )?(?:all )?used up|"
            r"uses? up (?:all )?(?:of )?(?:the )?(?:\w+ )?(?:memory|ram|vram)|"
            r"runs? out of (?:\w+ )?(?:memory|ram|vram)|\bmemory leak|memory overflow|"
            # vLLM's "No available memory for the cache blocks"
            r"no available memory|"
            # every rank's process also holding memory on the first GPU
            r"(?:memory|vram) on (?:gpu|cuda:?) ?0\b|"
            r"(?:process|job|worker|it) (?:\w+ ){0,2}(?:gets |got |was |is )?\W?killed|\d+% killed|"
            # SIGKILL's exit status, the kernel OOM killer's mark: "crashed with an error -9 and
            # no error message" (batch-30's GPT-J resume thread), "exit code 137"
            r"\b(?:error|exit ?code|exit status|return ?code|status|code)\s*[:=]?\s*(?:-9|137)\b|"
            r"killed by signal:? (?:9|sigkill)\b|"
            r"(?:more|too much|huge|high) (?:\w+ )?(?:gpu |cpu |host )?(?:memory|vram|ram)|"
            # NumPy's "_ArrayMemoryError", "fails with a memory error" (batch-35's llama-cpp-python
            # and exllamav2 threads): Python's MemoryError, also inside a longer class name
            r"memoryerror\b|\bmemory error\b"
        ),
    ),
    (
        "nan_inf",
        # "memory overflow" is a user's word for an OOM, not a numeric overflow
        re.compile(
            r"\bnans?\b|\binf(?:inity|inite)?\b|non-finite|"
            # numpy's warning when a NaN or inf is cast to an integer image
            r"invalid value encountered|"
            # nor is the Q&A site ("also posted on Stack Overflow", batch-35's LightGBM thread)
            r"(?<!memory )(?<!memory to )(?<!stack )\boverflow(?:s|ed)?\b"
        ),
    ),
    (
        "divergence",
        re.compile(
            r"(?:loss|grad(?:ient)?[ _]norm)\w* (?:\w+ ){0,3}(?:spik\w*|explod\w*|diverg\w*|"
            r"increas\w*|go(?:es|ing)? up|went up|oscillat\w*|collaps\w*|huge|blow\w* up|blew up|"
            # "the training loss changes wildly between consecutive epochs" (batch-32's TabNet)
            r"fluctuat\w*|(?:chang\w*|jump\w*|var(?:y|ies|ied)|swing\w*) wildly|"
            r"creep\w* up|climb\w*|ris(?:es|ing)|"
            r"(?:suddenly )?drops? to (?:0|zero)|"
            r"(?:is |are |stays? |remains? |gets? )?(?:stuck|flat|constant|the same|plateau\w*)|"
            r"(?:stays?|remains?) (?:exactly |at |around )?\d|"
            r"(?:do(?:es)? ?n[o']t|did ?n[o']t|is not|isn'?t|not|never) (?:\w+ )?"
            r"(?:decreas\w*|go(?:es|ing)? down|drop\w*|chang\w*|improv\w*|mov\w*|converg\w*))|"
            r"\bdiverg\w*|"
            r"(?:do(?:es)? ?n[o']t|did ?n[o']t|not|never|stops?) (?:learn\w*|converg\w*)|"
            # "with bf16 parameters the model struggles to converge" (batch-34's CausVid thread)
            r"\b(?:struggl\w*|fail\w*|unable) to converge|"
            # "the reward does not increase at all" (batch-34's GRPO-on-an-adapter thread): a
            # reward that rises is good news, so only its standing still states a failure
            r"\brewards? (?:\w+ ){0,3}(?:do(?:es)? ?n[o']t|did ?n[o']t|never|not) (?:\w+ )?"
            r"(?:increas|improv|go(?:es)? up|ris|grow|chang|mov)\w*|"
            # "loss ... drops at first, then jumps up and keeps growing", "the loss drops for four
            # epochs and then gets stuck around 0.85": the loss's own clause, up to a "but" or a
            # metric ("loss drops to 0.001 but token accuracy is stuck" is about the metric)
            # (a decimal point, "starts at 1.61 and climbs", does not end the clause)
            r"(?:\b|_)loss\b(?:(?!\bbut\b|accuracy|\bacc\b)(?:[^.;]|\.(?=\d))){0,80}?\b(?:"
            r"jump(?:s|ed)? (?:up|to)|shoots? up|shot up|rises|climbs|go(?:es)? up|went up|"
            # "then, halfway through training, suddenly becomes much larger"
            r"(?:becomes?|became|gets?|got) (?:much |a lot |far )?(?:larger|higher|bigger)|"
            # "the loss becomes extremely large" (batch-31's Keras GRU thread)
            r"(?:becomes?|became|gets?|got|is) (?:extremely|very|enormously) (?:large|big|high)|"
            # "only drops by tiny amounts each epoch" (batch-30's NVMe offload thread)
            r"(?:drops?|decreas\w*|falls?|goes down) (?:\w+ )?by (?:tiny|very small|minimal) "
            r"amounts?|"
            # "the loss is much worse than the README curve and then blows up"
            r"blows? up|blew up|is (?:much |a lot |far )?worse|"
            r"keeps? (?:growing|increasing|rising|going up)|"
            r"(?:gets? |is |stays? |remains? )?(?:stuck|stall\w*|plateau\w*)|"
            r"flattens?(?: out)?|(?:hardly|barely) (?:moves?|changes?|decreas\w*)|"
            # "the loss creeps down extremely slowly", "goes down, but very slowly": slow
            # learning, not a slow run
            r"(?:creep\w*|go(?:es)?|comes?|decreas\w*|drops?|falls?) (?:down,? (?:but )?)?"
            r"(?:\w+ )?slowly|"
            r"sits? (?:at|around))|"
            r"no learning|nothing (?:is |was |gets )?learn\w*|"
            # "converges noticeably slower", "learns slower": the curve, not the run's speed
            r"converg\w* (?:\w+ ){0,2}slow\w*|slow\w* convergence|learns? (?:\w+ ){0,2}slower|"
            # "the objectness curve descends very slowly": a curve, not the run's speed
            r"\b(?:descend\w*|improv\w*) (?:\w+ )?slowly|"
            r"higher (?:training |train |eval |validation )?loss|"
            r"never reach\w* the same (?:\w+ )?loss|"
            r"(?:learning|loss|training) curves? (?:\w+ ){0,3}worse|"
            # "instead of going down it climbs", "what is blowing the loss up"
            r"instead of (?:going down|decreasing|dropping)|blow\w* (?:the )?loss up|"
            r"loss (?:is |was )?(?:too )?high|(?:very |too )?high loss|"
            r"training (?:collaps\w*|unstable)|"
            # "training is extremely unstable and the reward collapses" (batch-32's SkyRL PR)
            r"\b(?:training|rewards?|loss) (?:is |was |becomes? |gets? )?(?:extremely |very |"
            r"quite |highly )?unstable|\brewards? (?:\w+ ){0,2}collaps\w*|"
            # "GPU utilisation spikes from low to high" (batch-28) is an idle GPU, and "CPU usage
            # spikes to 100%" (batch-31's Whisper GUI on the CPU) a busy CPU, not a loss
            r"(?<!utilisation )(?<!utilization )(?<!usage )(?<!cpu )(?<!memory )(?<!latency )"
            r"\bspikes?\b"
        ),
    ),
    # A metric "stuck at 25%" (or "frozen at 0.436", batch-26) is a wrong result, not a hang:
    # read before "stuck" or "frozen" means hang.
    (
        "wrong_output",
        re.compile(
            r"(?:\b|_)(?:accuracy|acc|precision|recall|f1|bleu|rouge|wer|cer|auc|"
            + _MAP_METRIC
            + r"|metrics?|scores?) (?:\w+ ){0,2}"
            r"(?:is |are |stays? |remains? |gets? )?(?:stuck|frozen)|"
            # "dev-other WER falls from 33% to about 13.3% by epoch 28-30, where it stalls"
            # (batch-31's neural_sp thread): the metric's own clause, up to a loss or a sentence end
            r"(?:\b|_)(?:accuracy|acc|wer|cer|bleu|rouge|f1|auc|acceptance(?: rate| length)?|"
            + _MAP_METRIC
            + r")\b"
            r"(?:(?!\bloss\b)(?:[^.;]|\.(?=\d))){0,80}?\b(?:stall\w*|plateau\w*|stagnat\w*)|"
            # "far from the README figure", "below the paper's accuracy": a reproduction gap
            r"\b(?:far (?:from|below)|worse than|lower than|short of|(?:can'?t|cannot|not|never) "
            r"reach\w*) (?:the )?(?:readme|paper'?s?|reported|published|official|claimed)\b|"
            # a generation that "never ends" is a missing stop token, not a process that hangs
            r"(?:responses?|outputs?|generations?|answers?|completions?) (?:\w+ ){0,2}"
            r"never (?:end|stop|finish)\w*|keeps? generating|"
            # "generate() never stops: every output runs on to max_new_tokens"
            r"generat\w*(?:\(\))? (?:\w+ ){0,2}never (?:end|stop|finish)\w*|"
            r"(?:runs?|goes|continues?) on (?:to|until) (?:the )?max_(?:new_)?(?:tokens|length)"
        ),
    ),
    (
        "hang",
        re.compile(
            # "freezes", not a flag named --freeze_encoder
            r"\bhang\w*|\bhung\b|\bstuck\b|\blocks? up\b|\blocked up\b|"
            r"\bfreez(?:e|es|ing)\b(?![_-])|deadlock\w*|"
            # a stall that lasts a while and ends is a slow run (the slow rule reads it)
            r"\bstall\w*+(?! for (?:a |an |some |several |a few |about |~)?(?:\w+ ){0,3}"
            r"(?:time|seconds?|minutes?|while)\b)|"
            # "pressing Ctrl+C no longer terminates the server" (batch-35's TGI thread)
            r"ctrl[+-]?c (?:\w+ ){0,2}(?:no longer|does ?n[o']t|won'?t|can'?t|cannot|not) "
            r"(?:\w+ )?(?:stop|terminat|kill|interrupt|end|exit)\w*|"
            # "a frozen backbone" is a training setup, not a process that froze
            r"\bfroze(?:n|s)?\b(?! (?:\w+ )?(?:backbone|layers?|weights?|encoder|parameters?|"
            r"params|base|model|embeddings?|modules?|blocks?|bert|vit|graphs?|\.?pb))|"
            # "then nothing at all ... I had to kill it"
            r"had to (?:kill|interrupt|ctrl-c)|"
            # "does not return the vector unchanged" (batch-28) is a wrong result, not a call
            # that blocks: a return with an object after it is what came back
            r"never (?:finish|return|start|complete|end|exit|terminat)\w*" + _NO_OBJECT + r"|"
            r"no progress|"
            # "the job stops making progress: no new log lines, the processes are still alive"
            r"(?:stops?|stopped|not) making progress|no new (?:log )?(?:lines|output)|"
            r"\btim(?:e|es|ed|ing) ?out\b|endless loop|stopped without (?:\w+ )?error|not up yet|"
            r"\btimeout\b|(?:waits?|waiting|blocks?|blocked) (?:\w+ )?forever|not responding|"
            r"(?:sits?|sitting|sat) (?:\w+ ){0,2}forever|never gets? past|"
            r"does ?n[o']t (?:\w+ )?(?:finish|progress|start|return|exit)" + _NO_OBJECT + r"|"
            r"never gets? (?:any )?further|nothing (?:\w+ ){0,2}(?:happens|moves)|"
            r"never prints? (?:anything|any ?more|another)|"
            # "a single request sent by hand gets no response at all" (batch-30's llama.cpp
            # server thread): the request never came back
            r"gets? no (?:\w+ )?response|no response at all|"
            # "prints 'extracting features ...' and then nothing else", "idle at 0% CPU"
            r"\bthen nothing (?:else|more)\b|\bidle at (?:~|about )?0 ?%"
        ),
    ),
    (
        "slow_throughput",
        re.compile(
            # "the loss slowly creeps up" describes a curve, not a slow run
            r"\bslow(?!ly (?:increas|creep|ris|grow|decreas|drop|converg|climb))\w*"
            # Hugging Face's "slow and fast tokenizers" name two implementations, not a speed
            # (batch-35's RoFormer save/load thread)
            r"(?! (?:and fast )?(?:\w+ )?tokeni[sz]ers?)|"
            # "after every epoch it stalls for a noticeable amount of time before the next epoch
            # starts" (batch-35's Keras thread): a pause that ends
            r"\b(?:stall|paus)(?:s|es|ed|ing)? for (?:a |an |some |several |a few |about |~)?"
            r"(?:\w+ ){0,3}(?:time|seconds?|minutes?|while)\b|"
            # throughput named, not praised: "throughput is much higher than with FastChat"
            # (batch-25's vLLM memory thread) or "throughput is good" state no slow run
            r"(?<!higher )(?<!good )\bthroughput\b"
            r"(?! is (?:much |a lot |far )?(?:higher|better|fine|good|great|ok))|"
            r"tokens?/s\b|\bit/s\b|\bs/it\b|samples?/s(?:ec)?\b|"
            # "--gpu-memory-utilization 0.8" is a memory budget, not a complaint about speed
            r"low (?:gpu )?utili[sz]ation|"
            # "nvidia-smi shows the GPU is not being used", "it only runs on the CPU"
            r"\bgpus? (?:\w+ ){0,2}(?:not (?:being )?(?:used|utili[sz]ed)|"
            r"(?:stays?|sits?|remains?) idle)|\b(?:only|still) (?:runs?|running) on (?:the )?cpu\b|"
            r"\bnot (?:\w+ )?(?:using|use) the gpu\b|"
            r"(?<!memory.)utili[sz]ation (?:is |of |at )?(?:only |about |around |~)*"
            r"(?:low|only|\d)|"
            r"takes? (?:much |way |far )?longer|(?:much|way|far|\d+x) (?:slower|longer)|"
            # "training takes a very long time" (batch-34's SB3 thread)
            r"(?:takes?|took|taking) (?:a )?(?:very |really |so |too |extremely )long\b|"
            r"speed (?:drop|regress)\w*|performance (?:drop|regress|degrad)\w*|latency|"
            r"no speed-?up|(?:step|iteration|iter) time|minutes per token|"
            # "time per token about 110 ms versus about 18 ms" (batch-29's TGI thread)
            r"(?:time|\bms|seconds?) per (?:output |generated |new )?token|"
            # "no speed gain at all from the extra cards", "an epoch takes just as long"
            r"no (?:\w+ )?(?:speed|performance)[- ]?(?:gain|improvement|benefit|boost)|"
            r"(?:takes?|took) just as long|"
            # "the wall time jumps roughly 20-fold at 200 iterations" (batch-31's CatBoost thread)
            r"\b(?:wall[- ]?(?:clock )?|run ?|training |fit |cpu )time\b[^.;]{0,60}?"
            r"\b(?:jump(?:s|ed)?|doubl\w*|explod\w*|grows?|increas\w*)|"
            r"\d+[- ]?fold (?:slower|longer)|"
            r"(?:images?|img|examples?|sequences?)/s(?:ec)?\b|not (?:\w+ )?faster|"
            # "the GPU run is only about 5-10 seconds faster than the CPU run" (batch-31's
            # rl-baselines-zoo thread), "barely faster on 4 GPUs"
            r"\b(?:only|barely|hardly|marginally|slightly|not much|little) (?:[\w.~%-]+ ){0,4}"
            r"faster\b|"
            r"expected (?:a|some) (?:\w+ )?speed-?up|"
            r"time (?:of|per|for) (?:each |every |one |an? )?(?:iteration|step|epoch|batch)|"
            r"takes? (?:about |over |nearly |almost |around |roughly |~)?(?:\d|>)[^ ]* ?"
            r"(?:s|sec\w*|min\w*|hours?)\b|"
            # "one epoch took about 6 hours" (batch-36's YOLOv8-OBB thread); not a warning's
            # "`start_trial` took 0.6 seconds" (batch-31's Ray Tune thread)
            r"\btook (?:about |over |nearly |almost |around |roughly |~)?\d[^ ]* ?"
            r"(?:min\w*|hours?)\b|"
            # "fitting takes about a minute and a half" (batch-35's XGBoost thread)
            # (a bare "takes about a minute" or "an hour" is said of fine runs too)
            r"takes? (?:about |over |nearly |almost |around |roughly )?"
            r"(?:(?:an?|one) (?:minute|hour) and a half|"
            r"(?:two|three|several|a few) (?:minutes|hours))\b|"
            # "the 4-bit run takes 6m 55.2s", "I expected 4-bit to be at least as fast"
            r"takes? (?:about |over )?\d+m ?\d+(?:\.\d+)?s\b|"
            r"expected (?:\w+ ){0,4}(?:at least )?as fast|"
            r"wastes? (?:\w+ ){0,2}(?:minutes?|seconds?|time)|"
            # "about 300 samples per second", "one step per second", "~12 s per epoch"
            # (not a metric's name in a list: "eval_runtime, samples/steps per second")
            r"(?<![/_])\b(?:samples?|steps?|rows?|flows?|examples?|images?|tokens?|batches?|"
            r"items?|sequences?|iterations?) per second|"
            r"(?:\d|~)[^ ]* ?(?:s|sec\w*|min\w*) per (?:epoch|step|batch|iteration)"
        ),
    ),
    (
        "wrong_output",
        re.compile(
            # "accuracy stays at chance" is one statement, not two
            r"\baccuracy\b[^.;]{0,30}?\b(?:at|near) chance|"
            r"gibberish|garbage|garbled|non-?sens\w*|meaningless|repetit\w*|"
            # a generation of one punctuation mark repeated ("!!!!!!!!"): no text at all
            r"(?:!{4,}|\?{4,})|"
            r"repeat\w* (?:\w+ )?(?:tokens?|words?|itself|themselves|the same)|"
            # "returns strange ImageNet classes" (batch-36's pretrained-models thread), "the model
            # ignores the user's instruction" (batch-36's Ollama thread)
            r"\bstrange (?:\w+ ){0,2}(?:classes|labels?|predictions?|results?|outputs?|answers?)|"
            r"\bignor\w* (?:the |my |our |its |their |user'?s? )*"
            r"(?:instructions?|prompts?|questions?)\b|"
            # "the prediction is different from what they get" (batch-36's XGBoost reload thread)
            r"\b(?:predictions?|results?) (?:is |are |was |were )(?:\w+ )?"
            r"(?:different|incorrect)\b|"
            r"wrong (?:\w+ )?(?:outputs?|answers?|results?|predictions?|values?|labels?)|"
            # "accuracy", but not a component named for it ("warnings from the accuracy metric")
            r"empty (?:outputs?|strings?|responses?|generations?)|"
            # nor one metric in a list the code computes ("compute accuracy/precision/f1")
            r"(?<!compute )\baccuracy\b(?!/)"
            r"(?! (?:metric|function|computation|calculation|callback|code|reward)s?\b)"
            # a value reported in passing ("evaluation prints accuracy 0.745, then it crashes")
            r"(?!:? (?:of )?\d)|"
            r"outputs? (?:are |is )?"
            r"(?:wrong|different|differs?|the same|identical|empty|incorrect)|"
            r"different (?:outputs?|results?|predictions?|logits|numbers|values|answers?|"
            r"embeddings)|"
            # an output compared with a reference: "the relative error is around 0.2" (batch-33's
            # MPS nn.Linear thread, whose comparison script flags it "diverged")
            r"\brelative error\b|"
            # a logged value that grows with the world size: a sum where a mean was asked for
            r"(?:loss|metric|value|accuracy|numbers?) (?:\w+ ){0,5}(?:scales?|grows?|doubles?) "
            r"with the (?:number of )?(?:gpus|ranks|devices|processes)|"
            r"(?:a|the) sum (?:over|across) (?:the |all )?(?:gpus|ranks|devices|processes)|"
            r"\d+(?:\.\d+)?% apart|(?:results?|scores?|metrics?|outputs?) (?:\w+ )?(?:depend\w*|"
            r"chang\w*|differ\w*) (?:\w+ )?(?:on|with) (?:the )?batch size|"
            r"with batch size \d+ but \d|"
            r"predicts? (?:\w+ )?(?:the same|only|always)|same (?:outputs?|predictions?)|"
            # "greedy generation gets 0% of continuations right": a score of what comes out
            r"\b(?:gets?|got|scores?) (?:only )?\d+(?:\.\d+)? ?% "
            r"(?:of (?:the )?\w+ )?(?:right|correct)\b|"
            r"\b(?:bleu|rouge|f1|perplexity|metrics?|score|exact[_ ]match|pass@\d+|"
            + _MAP_METRIC
            + r"|wer)\b "
            r"(?:\w+ )?(?:is |are )?(?:wrong|worse|"
            # "f1 is 0.0" reads zero; "macro-f1 0.71" is a value, not a complaint
            r"zero|0(?:\.0+)?(?![.\d])|low|bad|drops?)|(?:at|near) chance|"
            r"does ?n[o']t stop generat\w*|"
            r"mismatch(?:es|ed)? (?:\w+ )?(?:outputs?|results?|logits)|not (?:deterministic|"
            r"reproducible)|"
            # "an incorrect number of gradients" quotes an error message, not an output
            r"incorrect(?! number of)|black (?:images?|outputs?)|truncated|same random|"
            r"(?:scores?|results?) (?:much |far )?(?:lower|worse)|implausibly low|"
            r"behaves? unexpectedly|"
            # "the detections drawn on the image are clearly wrong", "boxes and scores are always
            # empty tensors" (batch-32's YOLOX and Faster R-CNN threads)
            r"\b(?:detections?|boxes|predictions?|outputs?|results?|transcripts?|answers?|labels?) "
            r"(?:[\w,]+ ){0,6}(?:are|is|were|was|come out|comes? out) (?:clearly |completely |"
            r"totally |all |just |always |often )?(?:wrong|empty)\b|"
            # "the output is text in some other language instead of English" (batch-32's Whisper
            # JAX thread)
            r"\bin (?:some |an? )?(?:other|another|different|wrong) language|"
            # "the gradient norm does not match the pp_size=1 baseline"
            r"\b(?:does|do)(?: not|n'?t) match the (?:[\w=]+ ){0,3}(?:baseline|reference)\b|"
            # "__1_0.distcp is empty ... rank 1's values are gone" (batch-32's DCP thread)
            r"\b(?:values?|weights?|data|entries) (?:are|is|were|was) (?:gone|lost|missing)\b|"
            # "the GPU result differs from the CPU result", "not giving correct results"
            r"\bresults? (?:\w+ ){0,2}differs? from|"
            # "the batched transcriptions differ from the per-utterance ones" (batch-30's
            # SpeechBrain thread)
            r"\b(?:transcript\w*|translations?|captions?|predictions?|embeddings?|logits) "
            r"(?:\w+ ){0,2}differs?\b|"
            # "the model I get back has ... their worse validation score" (batch-29's Keras
            # EarlyStopping thread)
            r"\bworse (?:validation |val |eval\w* |test )?(?:scores?|accuracy|metrics?)|"
            r"not (?:giving|producing|returning) (?:the )?(?:correct|right|expected) "
            r"(?:results?|outputs?|values?|answers?)"
        ),
    ),
    (
        "dependency_conflict",
        re.compile(
            r"importerror|modulenotfound\w*|cannot import|can'?t import|failed to import|"
            r"no module named|"
            r"undefined symbol|version (?:conflict|mismatch|incompatib\w*)|incompatible|"
            r"(?:fails?|failed|error) (?:\w+ )?(?:to )?(?:install|build|compil\w*)|"
            r"(?:install\w*|build|compil\w*) (?:\w+ )?(?:fails?|failed|error)|"
            # a wheel that does not fit, not the pip wheels an environment was installed from
            r"(?:no (?:matching )?|building |build |broken |wrong )wheels?\b|"
            r"wheels? (?:\w+ ){0,2}(?:(?:is |was )?(?:built|compiled) (?:for|against|with)|"
            r"(?:is |are )?not (?:supported|compatible|available))|"
            r"not compiled with|"
            # "a dependency parser" is a model, not a package
            r"dependenc\w*+(?! pars\w*| trees?| graphs?| labels?| arcs?)|"
            r"could not load (?:dynamic )?library|"
            r"cannot open shared object|"
            # the interpreter the installed release refuses: "not supported on Python 3.12+"
            r"(?:not supported|unsupported) (?:on|for|with|in) python|"
            r"python \d(?:\.\d+)?\+? (?:is )?(?:not supported|unsupported)"
        ),
    ),
    (
        "config_error",
        re.compile(
            r"\bconfig\w* (?:\w+ )?(?:error|invalid|wrong|ignored|not (?:applied|used|recognized))|"
            r"invalid (?:argument|value|config\w*|option|parameter)|unexpected keyword|"
            r"is not a valid \w+|"
            r"\b(?:argument|parameter|flag|option|key) (?:\w+ )?(?:error|ignored|invalid|"
            r"not (?:recogni[sz]ed|supported|allowed))|not supported|unsupported|validation error|"
            # argparse refusing what was typed: "'finetune_lora' is an invalid choice" (batch-34's
            # LitGPT thread), "unrecognized arguments: --local-rank=1"
            r"invalid choice|unrecogni[sz]ed arguments?"
        ),
    ),
    (
        "crash",
        re.compile(
            r"\bcrash\w*|segfault\w*|segmentation fault|core dump\w*|\baborts?\b|\baborted\b|"
            r"illegal (?:memory|instruction)|\bsigsegv\b|\bsigabrt\b|\bdie[sd]\b|"
            # a process ending with a failing status: "exits with return code = -7", "finished
            # with exit code -1073740791 (0xC0000409)" (batch-35's DeepSpeed and CatBoost threads);
            # SIGKILL's -9/137 is the OOM rule's, read first
            r"\b(?:exit|return) ?(?:code|status)\s*[:=]?\s*(?:-\d+|[1-9]\d*)\b"
        ),
    ),
)
