// The cosh words for the shared Declaration's open strings (src/declarations/model.ts).

export type CoshSource = 'cosh_config' | 'cosh_extension';
