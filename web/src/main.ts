// The shared stylesheet first: each component's own (scoped) rules come after it and win a tie.
import './styles.css';
import { createApp } from 'vue';
import App from './App.vue';
import { router } from './router';

createApp(App).use(router).mount('#app');
