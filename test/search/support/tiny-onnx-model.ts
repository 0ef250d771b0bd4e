/**
 * Writes a tiny BERT-shaped model folder that transformers.js 2.17 loads like all-MiniLM-L6-v2:
 * config.json (model_type bert), a WordPiece tokenizer.json + tokenizer_config.json, and
 * onnx/model.onnx whose graph is one node, `last_hidden_state = Gather(embeddings, input_ids)`
 * with random weights. The feature-extraction pipeline's mean pooling + normalise then run
 * over it exactly as over the real model — enough to prove the loading code offline.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pb } from './protobuf-writer.js';

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const WORDS = [
  'dark',
  'mode',
  'night',
  'theme',
  'please',
  'add',
  'export',
  'csv',
  'login',
  'slow',
  'probe',
];

// ONNX enums (onnx.proto): TensorProto.DataType FLOAT = 1, INT64 = 7; AttributeProto.INT = 2
const FLOAT = 1;
const INT64 = 7;

function valueInfo(field: number, name: string, elemType: number, dims: (number | string)[]) {
  const shape = dims.map((d) =>
    typeof d === 'number' ? pb.message(1, pb.int(1, d)) : pb.message(1, pb.string(2, d)),
  );
  // ValueInfoProto{name=1, type=2{tensor_type=1{elem_type=1, shape=2{dim=1…}}}}
  return pb.message(
    field,
    pb.string(1, name),
    pb.message(2, pb.message(1, pb.int(1, elemType), pb.message(2, ...shape))),
  );
}

export function tinyOnnxModel(vocabSize: number, hidden: number, seed = 1): Uint8Array {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  };
  const weights = new Float32Array(vocabSize * hidden).map(random);
  const initializer = pb.message(
    5, // GraphProto.initializer: TensorProto{dims=1, data_type=2, name=8, raw_data=9}
    pb.int(1, vocabSize),
    pb.int(1, hidden),
    pb.int(2, FLOAT),
    pb.string(8, 'embeddings'),
    pb.bytes(9, new Uint8Array(weights.buffer)),
  );
  const gather = pb.message(
    1, // GraphProto.node: NodeProto{input=1, output=2, name=3, op_type=4, attribute=5}
    pb.string(1, 'embeddings'),
    pb.string(1, 'input_ids'),
    pb.string(2, 'last_hidden_state'),
    pb.string(3, 'embed'),
    pb.string(4, 'Gather'),
    pb.message(5, pb.string(1, 'axis'), pb.int(3, 0), pb.int(20, 2)),
  );
  const graph = pb.message(
    7, // ModelProto.graph
    gather,
    pb.string(2, 'tiny-bert'),
    initializer,
    valueInfo(11, 'input_ids', INT64, ['batch', 'sequence']),
    valueInfo(12, 'last_hidden_state', FLOAT, ['batch', 'sequence', hidden]),
  );
  // ModelProto{ir_version=1, producer_name=2, graph=7, opset_import=8{version=2}}
  return pb.concat([
    pb.int(1, 7),
    pb.string(2, 'search-test'),
    graph,
    pb.message(8, pb.string(1, ''), pb.int(2, 13)),
  ]);
}

function tokenizerJson() {
  const vocab = Object.fromEntries([...SPECIAL, ...WORDS].map((token, id) => [token, id]));
  const special = (id: string) => ({ SpecialToken: { id, type_id: 0 } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
      pair: [
        special('[CLS]'),
        { Sequence: { id: 'A', type_id: 0 } },
        special('[SEP]'),
        { Sequence: { id: 'B', type_id: 1 } },
        special('[SEP]'),
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

/** Writes `<root>/<modelId>/…` and returns the model's hidden size. */
export function writeTinyBertModel(root: string, modelId: string, hidden = 16): number {
  const folder = join(root, modelId);
  mkdirSync(join(folder, 'onnx'), { recursive: true });
  const vocabSize = SPECIAL.length + WORDS.length;
  writeFileSync(
    join(folder, 'config.json'),
    JSON.stringify({
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: hidden,
      vocab_size: vocabSize,
    }),
  );
  writeFileSync(join(folder, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
  writeFileSync(
    join(folder, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: 512,
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      mask_token: '[MASK]',
    }),
  );
  writeFileSync(join(folder, 'onnx', 'model.onnx'), tinyOnnxModel(vocabSize, hidden));
  return hidden;
}
