export * from './accounts';
export * from './audit';
export * from './bots';
export * from './music';
export * from './settings';
