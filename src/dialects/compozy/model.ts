// The compozy words for the shared Declaration's open strings (src/declarations/model.ts).

export type CompozySource = 'native' | 'config' | 'extension' | 'agent_definition' | 'skill';

export type CompozySkillSource = 'bundled' | 'marketplace' | 'user' | 'additional' | 'workspace';
