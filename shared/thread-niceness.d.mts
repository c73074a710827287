export declare const NORMAL_NICENESS: number;
export declare function setThreadNiceness(niceness: number): void;
export declare function currentThreadId(): number;
export declare function trySetThreadNiceness(niceness: number): boolean;
