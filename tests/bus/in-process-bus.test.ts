import { InProcessBus } from '../../shared/bus/in-process-bus';
import { runBusContract } from './bus.case';

runBusContract('in-process', async () => new InProcessBus());
