/** The daemon alone (scaled-out layout): bots, voice sessions and playback, no HTTP. */
import { startDaemonProcess } from './process';

await startDaemonProcess();
