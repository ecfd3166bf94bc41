import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { reactRouterProductionInBrowser } from "../../scripts/vite-react-router-production.ts";

// The browser takes React Router's production build, as Vitrine's does (the bench compares the two pages' JavaScript).
export default defineConfig({ plugins: [reactRouterProductionInBrowser, reactRouter()] });
