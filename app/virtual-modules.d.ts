/** The browser chunks each on-demand field kind needs (vite.config.ts writes it from the client build; empty in dev). */
declare module "virtual:vitrine/on-demand-chunks" {
  const chunks: Readonly<Record<string, readonly string[]>>;
  export default chunks;
}
